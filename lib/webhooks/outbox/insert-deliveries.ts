/**
 * The outbox's one insert, as SQL text: for each row of `events` (a relation aliased `e` with `id`, `type` and
 * `payload`), one pending delivery for every enabled endpoint of the organization subscribed to the event's type,
 * its noun's pattern (`alert.*`) or `*`. `organizationId` and `createdAt` are SQL expressions (placeholders). Both
 * ways into the outbox end here: `enqueueWebhookEvents` (data events: alerts, subscription health) and the statement
 * that records an audit event (lib/audit/outbox-sql.ts), so one rule says who hears what. An organization without
 * webhooks pays one index probe.
 *
 * The platform floor below lib/audit (it imports only the ground): the audit log writes its outbox rows in the
 * event's own statement, and lib/webhooks, above the audit log, owns the table.
 */
export function insertDeliveries(events: string, organizationId: string, createdAt = 'now()'): string {
  return `insert into webhook_deliveries
      (organization_id, webhook_id, message_id, event_type, payload, next_attempt_at, created_at)
    select w.organization_id, w.id, e.id, e.type, e.payload, now(), ${createdAt}
    from ${events}
    join webhooks w on w.organization_id = ${organizationId} and w.enabled
      and w.events && array[e.type, split_part(e.type, '.', 1) || '.*', '*']`;
}
