'use client';

import { Button } from '@/components/ui/button';
import type { Subscription } from '@/lib/subscriptions/schema';
import { HealthBadge, StateBadge, TargetSummary, TimeAgo, shortId } from './display';

const header = 'px-3 py-2.5 text-left text-xs font-semibold uppercase tracking-wide text-slate-600';
const cell = 'px-3 py-3 align-top text-sm text-slate-800';

/** One row per subscription; the action opens its detail (and, for editors, the edit form). */
export function SubscriptionsTable({
  items,
  canEdit,
  permissionKnown,
  onOpen,
  onToggleState,
}: {
  items: Subscription[];
  canEdit: boolean;
  permissionKnown: boolean;
  onOpen: (subscription: Subscription) => void;
  /** Asks to pause an active subscription or resume a paused one (the caller confirms first). */
  onToggleState: (subscription: Subscription) => void;
}) {
  return (
    <div className="overflow-x-auto rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
      <table className="w-full min-w-[60rem] table-fixed">
        <caption className="sr-only">Subscriptions of this project</caption>
        <colgroup>
          <col className="w-36" />
          <col className="w-20" />
          <col className="w-20" />
          <col />
          <col className="w-16" />
          <col className="w-28" />
          <col className="w-40" />
          <col className="w-44" />
        </colgroup>
        <thead className="border-b border-slate-200 bg-slate-50">
          <tr>
            <th scope="col" className={header}>
              Slug
            </th>
            <th scope="col" className={header}>
              Queue
            </th>
            <th scope="col" className={header}>
              State
            </th>
            <th scope="col" className={header}>
              Target
            </th>
            <th scope="col" className={header}>
              Batch
            </th>
            <th scope="col" className={header}>
              Concurrency
            </th>
            <th scope="col" className={header}>
              Health
            </th>
            <th scope="col" className={header}>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {items.map((sub) => (
            <tr key={sub.id} data-testid={`subscription-${sub.slug}`}>
              <td className={`${cell} font-mono text-xs`}>{sub.slug}</td>
              <td className={`${cell} font-mono text-xs`} title={sub.queueId}>
                {shortId(sub.queueId)}
              </td>
              <td className={cell}>
                <StateBadge state={sub.state} />
              </td>
              <td className={cell}>
                <TargetSummary target={sub.target} />
              </td>
              <td className={`${cell} tabular-nums`}>{sub.batchSize}</td>
              <td className={`${cell} tabular-nums`}>{sub.maxConcurrency}</td>
              <td className={cell}>
                <HealthBadge health={sub.status.health} />
                {sub.status.lastError && (
                  <p className="mt-1 truncate text-xs text-red-700" title={sub.status.lastError.message}>
                    {sub.status.lastError.status} · {sub.status.lastError.class}
                  </p>
                )}
                <p className="mt-1 text-xs text-slate-600">
                  Last success <TimeAgo iso={sub.status.lastSuccessAt} />
                </p>
              </td>
              <td className={`${cell} space-x-2 whitespace-nowrap text-right`}>
                {canEdit && (sub.state === 'active' || sub.state === 'paused') && (
                  <Button
                    variant="secondary"
                    size="sm"
                    onClick={() => onToggleState(sub)}
                    aria-label={`${sub.state === 'active' ? 'Pause' : 'Resume'} ${sub.slug}`}
                  >
                    {sub.state === 'active' ? 'Pause' : 'Resume'}
                  </Button>
                )}
                {permissionKnown && (
                  <Button
                    variant="secondary"
                    size="sm"
                    onClick={() => onOpen(sub)}
                    aria-label={`${canEdit ? 'Edit' : 'View'} ${sub.slug}`}
                  >
                    {canEdit ? 'Edit' : 'View'}
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
