import { insertDeliveries } from '../webhooks/outbox/insert-deliveries';

/**
 * The outbox rows of one event, as the tail of the statement that writes the event: the outbox's one insert
 * (lib/webhooks/outbox), its one row the event, gated by `from` (the event's insert). Audit events carry no payload:
 * the worker reads the event when it sends. `p` gives a placeholder per value.
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
