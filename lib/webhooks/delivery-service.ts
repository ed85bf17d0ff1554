import { sql } from 'drizzle-orm';
import { recordAuditEvent } from '../audit/record';
import { SYSTEM_ACTOR } from '../audit/source';
import { openSecret } from '../crypto/secret-box';
import { type Tx } from '../db/client';
import { type DeliveryRows, type RowOutcome } from '../delivery/rows';
import * as t from '../db/schema';
import { webhookDisabledMessage } from '../notifications/messages';
import { notifyUsers, organizationAdmins } from '../notifications/service';
import { secretContext } from './service';

/** How long a claim holds a delivery: well past the 10 s send timeout, so only a crashed sender loses it. */
export const LEASE_SECONDS = 60;

export type ClaimedDelivery = {
  id: string;
  organizationId: string;
  webhookId: string;
  messageId: string;
  eventType: string;
  attempt: number;
  failedInSchedule: number;
  url: string;
  secrets: string[];
  body: string;
  dueSince: Date;
};

export type ClaimRow = {
  id: string;
  organization_id: string;
  webhook_id: string;
  message_id: string;
  event_type: string;
  attempt: number;
  schedule_from: number;
  next_attempt_at: Date | string;
  created_at: Date | string;
  url: string;
  secret_box: string;
  previous_secret_box: string | null;
  previous_secret_until: Date | string | null;
  payload: unknown;
  event: Record<string, unknown> | null;
};

/**
 * The webhook outbox as the delivery engine's rows: due deliveries of enabled endpoints, each claimed with its
 * endpoint's URL and signing secrets and, for an audit event, the event as the body's `data`.
 */
export const webhookRows: DeliveryRows = {
  table: t.webhookDeliveries,
  id: t.webhookDeliveries.id,
  state: t.webhookDeliveries.state,
  attempts: t.webhookDeliveries.attempts,
  lease: t.webhookDeliveries.lockedUntil,
  due: t.webhookDeliveries.nextAttemptAt,
  order: t.webhookDeliveries.nextAttemptAt,
  delivered: 'delivered',
  failed: 'failed',
  ready: sql`exists (select 1 from webhooks w where w.id = ${t.webhookDeliveries.webhookId} and w.enabled)`,
  select: sql`
    select c.id, c.organization_id, c.webhook_id, c.message_id, c.event_type, c.attempts as attempt, c.schedule_from,
      c.next_attempt_at, c.created_at, c.payload, w.url, w.secret_box, w.previous_secret_box, w.previous_secret_until,
      case when e.id is null then null else json_build_object(
        'id', e.id, 'seq', e.seq, 'occurredAt', to_char(e.occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'action', e.action, 'actor', e.actor, 'target', e.target, 'projectId', e.project_id, 'changes', e.changes,
        'reason', e.reason, 'context', e.context) end as event
    from claimed c join webhooks w on w.id = c.webhook_id
    left join audit_events e on e.id = c.message_id`,
};

export function claimedDelivery(r: ClaimRow, now: Date): ClaimedDelivery {
  const secrets = [openSecret(r.secret_box, secretContext(r.webhook_id))];
  const previousUntil = r.previous_secret_until ? new Date(r.previous_secret_until) : null;
  if (r.previous_secret_box && previousUntil && previousUntil > now)
    secrets.push(openSecret(r.previous_secret_box, secretContext(r.webhook_id)));
  const event = r.event as { occurredAt?: string } | null;
  // An audit event's time, or when a message that is none (an alert's transition, a test) was written.
  const timestamp = event?.occurredAt ?? new Date(r.created_at).toISOString();
  const data = event ?? r.payload ?? {};
  return {
    id: r.id,
    organizationId: r.organization_id,
    webhookId: r.webhook_id,
    messageId: r.message_id,
    eventType: r.event_type,
    attempt: r.attempt,
    failedInSchedule: r.attempt - r.schedule_from,
    url: r.url,
    secrets,
    body: JSON.stringify({ type: r.event_type, timestamp, data }),
    dueSince: new Date(r.next_attempt_at),
  };
}

/**
 * In an attempt's record: the endpoint's delivery log gets the attempt, and an exhausted schedule disables the
 * endpoint and tells its admins.
 */
export async function logAttempt(tx: Tx, delivery: ClaimedDelivery, outcome: RowOutcome): Promise<void> {
  const { result } = outcome;
  await tx.insert(t.webhookAttempts).values({
    organizationId: delivery.organizationId,
    webhookId: delivery.webhookId,
    deliveryId: delivery.id,
    attempt: delivery.attempt,
    status: result.status,
    durationMs: result.durationMs,
    error: result.error ?? (outcome.delivered ? null : `The receiver answered ${result.status}.`),
    at: outcome.at,
    nextAttemptAt: outcome.nextAttemptAt,
  });
  if (outcome.exhausted) await disableEndpoint(tx, delivery);
}

async function disableEndpoint(tx: Tx, delivery: ClaimedDelivery): Promise<void> {
  const reason = `every retry of event ${delivery.messageId} failed for a day.`;
  const [row] = await tx
    .update(t.webhooks)
    .set({ enabled: false, disabledReason: reason, updatedAt: new Date() })
    .where(sql`${t.webhooks.id} = ${delivery.webhookId} and ${t.webhooks.enabled}`)
    .returning();
  if (!row) return;
  await notifyUsers(
    tx,
    await organizationAdmins(tx, row.organizationId),
    row.organizationId,
    'webhook_disabled',
    webhookDisabledMessage(row.url, reason),
  );
  await recordAuditEvent(tx, {
    actor: SYSTEM_ACTOR,
    context: { requestId: null, ip: null, userAgent: null },
    organizationId: row.organizationId,
    action: 'webhook.disabled',
    target: { type: 'webhook', id: row.id, name: row.url },
    changes: [{ field: 'enabled', from: true, to: false }],
    reason,
  });
}
