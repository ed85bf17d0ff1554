'use client';

import { ListStates } from '@/components/console/list-states';
import { LoadMore } from '@/components/console/load-more';
import { useZone } from '@/components/console/time';
import { DataTable } from '@/components/ui/data-table';
import { Badge, EmptyState } from '@/components/ui/states';
import { dayAndSecond, exactTime } from '@/lib/format/time';
import type { SubscriptionDelivery } from '@/lib/subscriptions/activity-schema';
import { useSubscriptionDeliveries } from '@/lib/subscriptions/queries';
import { errorInWords, statusText } from '../../_components/error-words';
import type { SubscriptionAddress } from './subscription-address';

const OUTCOMES: Record<string, { label: string; tone: 'green' | 'red' | 'amber' | 'indigo' | 'slate' }> = {
  delivered: { label: 'Delivered', tone: 'green' },
  partial: { label: 'Partly failed', tone: 'amber' },
  failed: { label: 'Failed', tone: 'red' },
  in_flight: { label: 'In flight', tone: 'indigo' },
  paused: { label: 'Paused (410)', tone: 'amber' },
  released: { label: 'Handed back', tone: 'slate' },
  abandoned: { label: 'Abandoned', tone: 'slate' },
};

/** The outcomes the API names; any other value is shown as unknown, never as an error. */
function Outcome({ outcome }: { outcome: string }) {
  const known = OUTCOMES[outcome] ?? { label: 'Unknown', tone: 'slate' as const };
  return <Badge tone={known.tone}>{known.label}</Badge>;
}

const cell = 'px-4 py-3 align-top text-sm text-slate-800';

function Row({ d }: { d: SubscriptionDelivery }) {
  const zone = useZone();
  return (
    <tr>
      <th scope="row" data-label="Started" className={`${cell} whitespace-nowrap text-left font-normal`}>
        <time dateTime={d.startedAt} title={exactTime(d.startedAt, zone)}>
          {dayAndSecond(d.startedAt, zone)}
        </time>
      </th>
      <td data-label="Outcome" className={`${cell} whitespace-nowrap`}>
        <Outcome outcome={d.outcome} />
      </td>
      <td data-label="Status" className={`${cell} tabular-nums`}>
        {d.status === null ? <span className="text-slate-600">No answer</span> : statusText(d.status)}
      </td>
      <td data-label="Messages" className={`${cell} tabular-nums`}>
        {d.messages}
      </td>
      <td data-label="Duration" className={`${cell} whitespace-nowrap tabular-nums`}>
        {d.durationMs === null ? <span className="text-slate-600">—</span> : `${d.durationMs} ms`}
      </td>
      <td data-label="Error" className={`${cell} max-w-[22rem] max-sm:max-w-none`}>
        {d.errorClass || d.errorMessage ? (
          <>
            <p>{errorInWords({ class: d.errorClass ?? '', status: d.status ?? 0, message: d.errorMessage ?? '' })}</p>
            {d.errorClass && <p className="mt-0.5 font-mono text-xs text-slate-600">{d.errorClass}</p>}
          </>
        ) : (
          <span className="text-slate-600">—</span>
        )}
      </td>
    </tr>
  );
}

/** Every request sent to the target in the last 24 hours, newest first; it refreshes while the page is visible. */
export function RecentDeliveries({ orgId, projectId, subscriptionId }: SubscriptionAddress) {
  const deliveries = useSubscriptionDeliveries(orgId, projectId, subscriptionId);
  return (
    <section aria-labelledby="deliveries-title" className="mt-8">
      <h2 id="deliveries-title" className="mb-3 text-lg font-semibold text-slate-900">
        Recent deliveries
      </h2>
      <ListStates
        list={deliveries}
        loading="Loading deliveries"
        columns={6}
        errorTitle="Could not load the deliveries"
        empty={
          <EmptyState title="No deliveries in the last 24 hours">
            Each request to the target appears here, with its outcome, as it happens.
          </EmptyState>
        }
      >
        <DataTable
          caption="Deliveries of the last 24 hours, newest first"
          columns={['Started', 'Outcome', 'Status', 'Messages', 'Duration', 'Error']}
          minWidth="52rem"
          stacked
          footer={<LoadMore list={deliveries} />}
        >
          {deliveries.items.map((d) => (
            <Row key={d.id} d={d} />
          ))}
        </DataTable>
      </ListStates>
    </section>
  );
}
