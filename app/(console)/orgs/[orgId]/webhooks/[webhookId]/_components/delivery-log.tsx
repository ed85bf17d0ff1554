'use client';

import { runMutation } from '@/components/console/feedback';
import { ListStates } from '@/components/console/list-states';
import { LoadMore } from '@/components/console/load-more';
import { exactTime } from '@/lib/format/time';
import { ActionsCell, DataTable, RowAction } from '@/components/ui/data-table';
import { Badge, EmptyState } from '@/components/ui/states';
import { useRedeliver, useWebhookAttempts } from '@/lib/webhooks/queries';
import type { WebhookAttempt } from '@/lib/webhooks/schema';

function Status({ attempt }: { attempt: WebhookAttempt }) {
  if (attempt.status === null) return <Badge tone="red">No answer</Badge>;
  const ok = attempt.status >= 200 && attempt.status < 300;
  return <Badge tone={ok ? 'green' : 'red'}>{attempt.status}</Badge>;
}

function When({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={exactTime(iso)}>
      {exactTime(iso)}
    </time>
  );
}

/** Every attempt of every message to one endpoint, newest first; it refreshes itself while open. */
export function DeliveryLog({ orgId, webhookId }: { orgId: string; webhookId: string }) {
  const attempts = useWebhookAttempts(orgId, webhookId);
  const redeliver = useRedeliver(orgId, webhookId);

  return (
    <section aria-labelledby="delivery-log-title" className="mt-8">
      <h2 id="delivery-log-title" className="mb-3 text-lg font-semibold text-slate-900">
        Delivery log
      </h2>
      <ListStates
        list={attempts}
        loading="Loading deliveries"
        columns={6}
        errorTitle="Could not load deliveries"
        empty={
          <EmptyState title="No deliveries yet">
            Attempts appear here as they are made. Send a test event to try the endpoint.
          </EmptyState>
        }
      >
        <DataTable
          caption="Delivery log"
          columns={['Time', 'Event', 'Attempt', 'Status', 'Duration', 'Next retry', 'Error', null]}
          minWidth="56rem"
          stacked
          footer={<LoadMore list={attempts} />}
        >
          {attempts.items.map((a) => (
            <tr key={a.id}>
              <td data-label="Time" className="whitespace-nowrap px-4 py-3 text-slate-700">
                <When iso={a.at} />
              </td>
              <th scope="row" className="px-4 py-3 text-left font-mono text-xs font-normal text-slate-800">
                {a.eventType}
                <span className="block text-slate-500" title="webhook-id">
                  {a.messageId}
                </span>
              </th>
              <td data-label="Attempt" className="px-4 py-3 text-slate-700">
                {a.attempt}
              </td>
              <td data-label="Status" className="px-4 py-3">
                <Status attempt={a} />
              </td>
              <td data-label="Duration" className="whitespace-nowrap px-4 py-3 text-slate-700">
                {a.durationMs} ms
              </td>
              <td data-label="Next retry" className="whitespace-nowrap px-4 py-3 text-slate-700">
                {a.nextAttemptAt ? <When iso={a.nextAttemptAt} /> : <span className="text-slate-500">—</span>}
              </td>
              <td data-label="Error" className="px-4 py-3 text-slate-700">
                {a.error ?? ''}
              </td>
              <ActionsCell>
                <RowAction
                  label="Redeliver"
                  name={`Redeliver ${a.eventType} ${a.messageId}, attempt ${a.attempt}`}
                  onClick={() =>
                    void runMutation(() => redeliver.mutateAsync(a.id), {
                      success: `Queued ${a.eventType} again; it goes out within seconds.`,
                      failure: 'Could not redeliver',
                    })
                  }
                />
              </ActionsCell>
            </tr>
          ))}
        </DataTable>
      </ListStates>
    </section>
  );
}
