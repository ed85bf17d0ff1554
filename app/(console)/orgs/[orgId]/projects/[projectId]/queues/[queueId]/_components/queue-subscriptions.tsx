'use client';

import Link from 'next/link';
import { DataTable } from '@/components/ui/data-table';
import { TimeAgo } from '@/components/console/time';
import type { SubscriptionActivity } from '@/lib/subscriptions/activity-schema';
import type { Subscription } from '@/lib/subscriptions/schema';
import { HealthBadge, StateBadge, TargetSummary } from '../../../subscriptions/_components/display';
import { count } from '../../_components/queue-words';

const cell = 'px-4 py-3 align-top text-sm text-slate-800';

/** A figure, or a placeholder of its height while the backlog is read. */
function Figure({ children }: { children: React.ReactNode }) {
  if (children === undefined)
    return (
      <span className="inline-block h-4 w-10 animate-pulse rounded bg-slate-200 align-middle">
        <span className="sr-only">Loading</span>
      </span>
    );
  return <>{children}</>;
}

/** A queue's subscriptions: how each is doing and what waits in it; each links to its own page. */
export function QueueSubscriptions({
  orgId,
  projectId,
  items,
  backlogOf,
}: {
  orgId: string;
  projectId: string;
  items: Subscription[];
  backlogOf: (id: string) => SubscriptionActivity['backlog'] | undefined;
}) {
  return (
    <DataTable
      caption="Subscriptions of this queue"
      columns={['Subscription', 'State', 'Health', 'Ready', 'In flight', 'Last success']}
      minWidth="52rem"
      stacked
    >
      {items.map((sub) => {
        const backlog = backlogOf(sub.id);
        // Messages: at most maxConcurrency deliveries of batchSize messages each are in flight at once.
        const most = sub.maxConcurrency * sub.batchSize;
        return (
          <tr key={sub.id} data-testid={`subscription-${sub.slug}`}>
            <th scope="row" className={`${cell} text-left font-normal`}>
              <Link
                href={`/orgs/${orgId}/projects/${projectId}/subscriptions/${sub.id}`}
                className="whitespace-nowrap font-mono text-xs font-semibold text-indigo-700 hover:underline"
              >
                {sub.slug}
              </Link>
              <div className="mt-1">
                <TargetSummary target={sub.target} />
              </div>
            </th>
            <td data-label="State" className={`${cell} whitespace-nowrap`}>
              <StateBadge state={sub.state} />
            </td>
            <td data-label="Health" className={`${cell} whitespace-nowrap`}>
              <HealthBadge health={sub.status.health} />
            </td>
            <td data-label="Ready" className={`${cell} tabular-nums`}>
              <Figure>{backlog && count(backlog.ready)}</Figure>
            </td>
            <td data-label="In flight" className={`${cell} tabular-nums`}>
              <Figure>
                {backlog && (
                  <span title={`At most ${sub.maxConcurrency} deliveries of ${sub.batchSize} messages at once`}>
                    {count(backlog.inFlight)} of {count(most)}
                  </span>
                )}
              </Figure>
            </td>
            <td data-label="Last success" className={cell}>
              <TimeAgo iso={sub.status.lastSuccessAt} />
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}
