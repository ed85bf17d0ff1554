import { hook } from '../hooks';
import type { DbOrTx } from '../db/client';
import { afterCommit } from '../db/commit-hooks';
import { affectedRows } from '../db/statement';

/**
 * Who is told that a statement queued webhook deliveries: this instance's webhook loop (server/hooks.ts), which then
 * looks at once rather than at its next poll. A hint: other instances, and the writes that queue their rows inside a
 * larger statement, are found by the poll (WEBHOOK_POLL_MS).
 */
export const outboxFilled = hook<() => void>('outbox-filled');

/**
 * Tells the webhook loop when `result`, the outbox insert's own statement run on `dbOrTx`, queued any delivery: once
 * its transaction has committed, so the loop's claim sees the rows.
 */
export function noteOutboxInsert(dbOrTx: DbOrTx, result: unknown): void {
  if (affectedRows(result) > 0) afterCommit(dbOrTx, () => outboxFilled.find()?.());
}

/**
 * The outbox's one insert, as SQL text: for each row of `events` (a relation aliased `e` with `id`, `type` and
 * `payload`), one pending delivery for every enabled endpoint of the organization subscribed to the event's type,
 * its noun's pattern (`alert.*`) or `*`. `organizationId` and `createdAt` are SQL expressions (placeholders). Both
 * ways into the outbox end here: `enqueueWebhookEvents` (data events: alerts, subscription health) and the statement
 * that records an audit event (`outboxInsert` below), so one rule says who hears what. An organization without
 * webhooks pays one index probe.
 *
 * On the platform with the audit log (it imports only the ground), so every writer may import it: the audit log
 * writes its outbox rows in the event's own statement, and lib/webhooks, a feature, owns the table and its worker.
 */
export function insertDeliveries(events: string, organizationId: string, createdAt = 'now()'): string {
  return `insert into webhook_deliveries
      (organization_id, webhook_id, message_id, event_type, payload, next_attempt_at, created_at)
    select w.organization_id, w.id, e.id, e.type, e.payload, now(), ${createdAt}
    from ${events}
    join webhooks w on w.organization_id = ${organizationId} and w.enabled
      and w.events && array[e.type, split_part(e.type, '.', 1) || '.*', '*']`;
}

/**
 * The outbox rows of one event, as the tail of the statement that writes the event: the outbox's one insert, its
 * one row the event, gated by `from` (the event's insert). Audit events carry no payload: the worker reads the event
 * when it sends. `p` gives a placeholder per value.
 */
export function outboxInsert(
  from: string,
  event: { id: string; organizationId: string; action: string },
  p: (value: unknown, type: string) => string,
): string {
  const row = `(select ${p(event.id, 'uuid')} as id, ${p(event.action, 'text')} as type, null::jsonb as payload
      from ${from}) e`;
  return insertDeliveries(row, p(event.organizationId, 'uuid'));
}
