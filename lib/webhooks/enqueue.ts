import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import * as t from '../db/schema';

export type DataEvent = { id: string; type: string; payload: unknown };

/**
 * Queues data events (an alert's transition, a subscription's health turn) for delivery, in the caller's
 * transaction: one outbox row per event for every enabled endpoint of the organization subscribed to its type,
 * its noun's pattern or `*`. The event's id is the `webhook-id` on every attempt. One statement.
 */
export async function enqueueWebhookEvents(
  tx: Tx,
  organizationId: string,
  events: DataEvent[],
  at: Date,
): Promise<void> {
  if (events.length === 0) return;
  await tx.execute(sql`insert into ${t.webhookDeliveries}
      (organization_id, webhook_id, message_id, event_type, payload, next_attempt_at, created_at)
    select w.organization_id, w.id, e.id, e.type, e.payload, now(), ${at.toISOString()}::timestamptz
    from jsonb_to_recordset(${JSON.stringify(events)}::jsonb) as e(id uuid, type text, payload jsonb)
    join ${t.webhooks} w on w.organization_id = ${organizationId} and w.enabled
      and w.events && array[e.type, split_part(e.type, '.', 1) || '.*', '*']`);
}
