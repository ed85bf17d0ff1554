'use client';

import Link from 'next/link';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { ActionsCell, DataTable } from '@/components/ui/data-table';
import type { Subscription } from '@/lib/subscriptions/schema';
import { TimeAgo } from '@/components/console/time';
import { HealthBadge, StateBadge, TargetSummary, shortId } from './display';

const cell = 'px-4 py-3 align-top text-sm text-slate-800';
// A link in small text, padded to a 24 px target (WCAG 2.5.8) while its line keeps the text's height.
const smallLink = '-my-1 inline-flex min-h-6 min-w-6 items-center py-1';

/** One row per subscription, linking to its page and its queue's; the action opens its edit dialog. */
export function SubscriptionsTable({
  orgId,
  projectId,
  queueNames,
  items,
  canEdit,
  permissionKnown,
  onOpen,
  footer,
  onToggleState,
}: {
  orgId: string;
  projectId: string;
  /** The project's queues by id, as loaded; a queue not among them is named by its id. */
  queueNames: ReadonlyMap<string, string>;
  items: Subscription[];
  canEdit: boolean;
  permissionKnown: boolean;
  onOpen: (subscription: Subscription) => void;
  footer?: ReactNode;
  /** Asks to pause an active subscription or resume a paused one (the caller confirms first). */
  onToggleState: (subscription: Subscription) => void;
}) {
  return (
    <DataTable
      caption="Subscriptions of this project"
      columns={['Subscription', 'State', 'Target', 'Batch', 'Concurrency', 'Health', null]}
      minWidth="56rem"
      stacked
      footer={footer}
    >
      {items.map((sub) => (
        <tr key={sub.id} data-testid={`subscription-${sub.slug}`}>
          <td data-label="Subscription" className={cell}>
            <Link
              href={`/orgs/${orgId}/projects/${projectId}/subscriptions/${sub.id}`}
              className={`${smallLink} whitespace-nowrap font-mono text-xs font-semibold text-indigo-700 hover:underline`}
            >
              {sub.slug}
            </Link>
            <p className="mt-1 text-xs text-slate-600">
              Queue{' '}
              <Link
                href={`/orgs/${orgId}/projects/${projectId}/queues/${sub.queueId}`}
                className={`${smallLink} font-medium text-indigo-700 hover:underline`}
              >
                {queueNames.get(sub.queueId) ?? (
                  <span className="font-mono" title={sub.queueId}>
                    {shortId(sub.queueId)}
                  </span>
                )}
              </Link>
            </p>
          </td>
          <td data-label="State" className={`${cell} whitespace-nowrap`}>
            <StateBadge state={sub.state} />
          </td>
          <td data-label="Target" className={`${cell} max-w-[13rem] max-sm:max-w-none`}>
            <TargetSummary target={sub.target} />
          </td>
          <td data-label="Batch" className={`${cell} tabular-nums`}>
            {sub.batchSize}
          </td>
          <td data-label="Concurrency" className={`${cell} tabular-nums`}>
            {sub.maxConcurrency}
          </td>
          <td data-label="Health" className={`${cell} w-36 max-sm:w-auto`}>
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
          <ActionsCell>
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
          </ActionsCell>
        </tr>
      ))}
    </DataTable>
  );
}
