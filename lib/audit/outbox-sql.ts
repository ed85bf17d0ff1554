import { actionNoun } from '../audit-actions';

/**
 * What an endpoint's `events` must share with an action to receive it: the action itself, its noun's
 * pattern (`api_key.*`), or `*`. Matched by `events && array[…]` inside the statement that records the event.
 */
export function subscribedPatterns(action: string): [string, string] {
  return [action, `${actionNoun(action)}.*`];
}

/**
 * The outbox rows of one event, as the tail of the statement that writes the event: one pending delivery per
 * enabled endpoint of the organization whose events match. `from` names the rows that gate it (the event's
 * insert), and `p` gives a placeholder per value. An organization without webhooks pays one index probe.
 */
export function outboxInsert(
  from: string,
  event: { id: string; organizationId: string; action: string },
  p: (value: unknown, type: string) => string,
): string {
  const [action, noun] = subscribedPatterns(event.action);
  return `insert into webhook_deliveries (organization_id, webhook_id, message_id, event_type, next_attempt_at)
    select w.organization_id, w.id, ${p(event.id, 'uuid')}, ${p(event.action, 'text')}, now()
    from ${from} cross join webhooks w
    where w.organization_id = ${p(event.organizationId, 'uuid')} and w.enabled
      and w.events && array[${p(action, 'text')}, ${p(noun, 'text')}, '*']`;
}
