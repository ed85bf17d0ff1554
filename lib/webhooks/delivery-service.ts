import { sql } from 'drizzle-orm';
import { recordAuditEvent } from '../audit/record';
import { SYSTEM_ACTOR } from '../audit/source';
import { openSecret } from '../crypto/secret-box';
import { getDb, type Tx } from '../db/client';
import * as t from '../db/schema';
import { webhookDisabledMessage } from '../notifications/messages';
import { notifyUsers, organizationAdmins } from '../notifications/service';
import { secretContext } from './service';
import { queryRows } from '../db/statement';

/** How long a claim holds a delivery: well past the 10 s send timeout, so only a crashed sender loses it. */
const LEASE_SECONDS = 60;

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

type ClaimRow = {
  id: string;
  organization_id: string;
  webhook_id: string;
  message_id: string;
  event_type: string;
  attempts: number;
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
 * Claims up to `limit` due deliveries of enabled endpoints for this instance: rows other instances hold are
 * skipped (`for update skip locked`), and the lease plus the attempt number written here make each attempt
 * one instance's alone. Returns each with its signing secrets and the body to send.
 */
export async function claimDueDeliveries(limit: number, now = new Date()): Promise<ClaimedDelivery[]> {
  const db = await getDb();
  const rows = await queryRows<ClaimRow>(
    db,
    sql`
    with due as (
      select d.id from webhook_deliveries d join webhooks w on w.id = d.webhook_id and w.enabled
      where d.state = 'pending' and d.next_attempt_at <= now() and (d.locked_until is null or d.locked_until < now())
      order by d.next_attempt_at
      limit ${limit}
      for update of d skip locked
    ), claimed as (
      update webhook_deliveries d
      set attempts = d.attempts + 1, locked_until = now() + make_interval(secs => ${LEASE_SECONDS})
      from due where d.id = due.id
      returning d.*
    )
    select c.id, c.organization_id, c.webhook_id, c.message_id, c.event_type, c.attempts, c.schedule_from,
      c.next_attempt_at, c.created_at, c.payload, w.url, w.secret_box, w.previous_secret_box, w.previous_secret_until,
      case when e.id is null then null else json_build_object(
        'id', e.id, 'seq', e.seq, 'occurredAt', to_char(e.occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'action', e.action, 'actor', e.actor, 'target', e.target, 'projectId', e.project_id, 'changes', e.changes,
        'reason', e.reason, 'context', e.context) end as event
    from claimed c join webhooks w on w.id = c.webhook_id
    left join audit_events e on e.id = c.message_id`,
  );
  const claimed: ClaimedDelivery[] = [];
  const unsignable: ClaimRow[] = [];
  for (const row of rows) {
    try {
      claimed.push(claimedDelivery(row, now));
    } catch (err) {
      console.error(`Webhook delivery ${row.id}: cannot open its signing secret here; left to other instances.`, err);
      unsignable.push(row);
    }
  }
  // An instance whose ENCRYPTION_KEY differs must not strand what it claimed for a whole lease, nor burn an
  // attempt number it never sent: the claim is undone at once.
  for (const row of unsignable) await releaseClaim(row.id, row.attempts);
  return claimed;
}

/**
 * Undoes a claim not yet recorded: the delivery is due again for any instance at once, under the same attempt
 * number. A send of it still under way here records nothing afterwards (its attempt number no longer matches).
 */
export async function releaseClaim(id: string, attempt: number): Promise<void> {
  const db = await getDb();
  await db.execute(sql`
    update webhook_deliveries set attempts = attempts - 1, locked_until = null
    where id = ${id}::uuid and attempts = ${attempt} and locked_until is not null`);
}

function claimedDelivery(r: ClaimRow, now: Date): ClaimedDelivery {
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
    attempt: r.attempts,
    failedInSchedule: r.attempts - r.schedule_from,
    url: r.url,
    secrets,
    body: JSON.stringify({ type: r.event_type, timestamp, data }),
    dueSince: new Date(r.next_attempt_at),
  };
}

export type AttemptOutcome = {
  status: number | null;
  error: string | null;
  durationMs: number;
  at: Date;
  /** How long until the next try, from the record on the database's clock; null: no retry (delivered, refused for
   * good, or the schedule is used up). */
  retryInMs: number | null;
  delivered: boolean;
  /** The schedule is used up: the endpoint is disabled and its admins are told. */
  exhausted: boolean;
};

/**
 * Records one attempt and moves its delivery on, in one transaction; only while this instance still holds the
 * attempt it claimed (a lease that ran out and was claimed again records nothing here, and neither does a second
 * call for an attempt already recorded, whose lease is cleared). Returns whether it recorded.
 */
export async function recordAttempt(delivery: ClaimedDelivery, outcome: AttemptOutcome): Promise<boolean> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const state = outcome.delivered ? 'delivered' : outcome.retryInMs !== null ? 'pending' : 'failed';
    const nextAttemptAt =
      outcome.retryInMs === null ? null : sql`now() + make_interval(secs => ${outcome.retryInMs / 1000})`;
    const moved = await tx
      .update(t.webhookDeliveries)
      .set({ state, nextAttemptAt, lockedUntil: null })
      .where(
        sql`${t.webhookDeliveries.id} = ${delivery.id} and ${t.webhookDeliveries.attempts} = ${delivery.attempt}
          and ${t.webhookDeliveries.lockedUntil} is not null`,
      )
      .returning({ id: t.webhookDeliveries.id, nextAttemptAt: t.webhookDeliveries.nextAttemptAt });
    if (moved.length === 0) return false;
    await tx.insert(t.webhookAttempts).values({
      organizationId: delivery.organizationId,
      webhookId: delivery.webhookId,
      deliveryId: delivery.id,
      attempt: delivery.attempt,
      status: outcome.status,
      durationMs: outcome.durationMs,
      error: outcome.error,
      at: outcome.at,
      nextAttemptAt: outcome.retryInMs === null ? null : moved[0].nextAttemptAt,
    });
    if (outcome.exhausted) await disableEndpoint(tx, delivery);
    return true;
  });
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
