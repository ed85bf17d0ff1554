import type { Tx } from '../db/client';
import { textAsSql } from '../db/statement';
import { insertDeliveries, noteOutboxInsert } from '../audit/outbox';

export type DataEvent = { id: string; type: string; payload: unknown };

/**
 * Queues data events (an alert's transition, a subscription's health turn) for delivery, in the caller's
 * transaction: one outbox row per event for every enabled endpoint of the organization subscribed to its type,
 * its noun's pattern or `*` (`insertDeliveries`, the rule audit events are queued by too). The event's id is the
 * `webhook-id` on every attempt. One statement.
 */
export async function enqueueWebhookEvents(
  tx: Tx,
  organizationId: string,
  events: DataEvent[],
  at: Date,
): Promise<void> {
  if (events.length === 0) return;
  const result = await tx.execute(
    textAsSql((p) =>
      insertDeliveries(
        `jsonb_to_recordset(${p(JSON.stringify(events), 'jsonb')}) as e(id uuid, type text, payload jsonb)`,
        p(organizationId, 'uuid'),
        p(at.toISOString(), 'timestamptz'),
      ),
    ),
  );
  noteOutboxInsert(tx, result);
}
