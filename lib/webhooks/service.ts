import { randomBytes, randomUUID } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import { changesBetween } from '../audit/changes';
import { recordAuditEvent } from '../audit/record';
import type { AuditSource } from '../db/audit-types';
import { sealSecret } from '../crypto/secret-box';
import { getDb, type DbOrTx } from '../db/client';
import * as t from '../db/schema';
import { idNotFound, notFound } from '../errors';
import { afterCursor, toPage, type Page, type PageQuery } from '../http/pagination';
import type { CreateWebhookBody, UpdateWebhookBody, Webhook, WebhookAttempt } from './schema';
import { queryRows } from '../db/statement';

type Row = typeof t.webhooks.$inferSelect;

/** How long a rotated-out secret keeps signing, as a second signature. */
export const PREVIOUS_SECRET_MS = 24 * 3_600_000;

export const secretContext = (webhookId: string) => `webhook:${webhookId}`;

/** A Standard Webhooks secret: `whsec_` and the base64 of 32 random bytes. */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export function toWebhook(row: Row): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    createdAt: row.createdAt.toISOString(),
  };
}

const webhookTarget = (row: { id: string; url: string }) => ({ type: 'webhook', id: row.id, name: row.url });

export async function createWebhook(
  organizationId: string,
  body: CreateWebhookBody,
  source: AuditSource,
): Promise<{ webhook: Webhook; secret: string }> {
  const db = await getDb();
  const id = randomUUID();
  const secret = newSecret();
  const row = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(t.webhooks)
      .values({
        id,
        organizationId,
        url: body.url,
        events: body.events,
        description: body.description ?? '',
        secretBox: sealSecret(secret, secretContext(id)),
      })
      .returning();
    await recordAuditEvent(tx, {
      ...source,
      organizationId,
      action: 'webhook.created',
      target: webhookTarget(created),
      changes: [{ field: 'events', from: null, to: created.events }],
    });
    return created;
  });
  return { webhook: toWebhook(row), secret };
}

export async function listWebhooks(organizationId: string, query: PageQuery): Promise<Page<Webhook>> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(t.webhooks)
    .where(
      and(
        eq(t.webhooks.organizationId, organizationId),
        afterCursor(query.cursor, t.webhooks.createdAt, t.webhooks.id, 'desc'),
      ),
    )
    .orderBy(desc(t.webhooks.createdAt), desc(t.webhooks.id))
    .limit(query.limit + 1);
  return toPage(rows, query.limit, (r) => r.createdAt, toWebhook);
}

async function lockedWebhook(tx: DbOrTx, organizationId: string, webhookId: string): Promise<Row> {
  const [row] = await tx
    .select()
    .from(t.webhooks)
    .where(and(eq(t.webhooks.id, webhookId), eq(t.webhooks.organizationId, organizationId)))
    .for('update');
  if (!row) throw idNotFound('webhook', webhookId);
  return row;
}

export async function getWebhook(organizationId: string, webhookId: string): Promise<Webhook> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(t.webhooks)
    .where(and(eq(t.webhooks.id, webhookId), eq(t.webhooks.organizationId, organizationId)));
  if (!row) throw idNotFound('webhook', webhookId);
  return toWebhook(row);
}

const editable = (row: Pick<Row, 'url' | 'events' | 'description' | 'enabled'>) => ({
  url: row.url,
  events: row.events,
  description: row.description,
  enabled: row.enabled,
});

/** Changes only the fields given; an unchanged endpoint writes no event. Re-enabling clears the reason. */
export async function updateWebhook(
  organizationId: string,
  webhookId: string,
  body: UpdateWebhookBody,
  source: AuditSource,
): Promise<Webhook> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const before = await lockedWebhook(tx, organizationId, webhookId);
    const after = { ...editable(before), ...body };
    const changes = changesBetween(editable(before), after);
    if (changes.length === 0) return toWebhook(before);
    const [row] = await tx
      .update(t.webhooks)
      .set({ ...body, disabledReason: after.enabled ? null : before.disabledReason, updatedAt: new Date() })
      .where(eq(t.webhooks.id, webhookId))
      .returning();
    await recordAuditEvent(tx, {
      ...source,
      organizationId,
      action: 'webhook.updated',
      target: webhookTarget(row),
      changes,
    });
    return toWebhook(row);
  });
}

export async function deleteWebhook(organizationId: string, webhookId: string, source: AuditSource): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const row = await lockedWebhook(tx, organizationId, webhookId);
    await tx.delete(t.webhooks).where(eq(t.webhooks.id, webhookId));
    await recordAuditEvent(tx, { ...source, organizationId, action: 'webhook.deleted', target: webhookTarget(row) });
  });
}

/** A new secret; the current one becomes the previous, signing beside it for 24 hours. */
export async function rotateWebhookSecret(
  organizationId: string,
  webhookId: string,
  source: AuditSource,
  now = new Date(),
): Promise<{ secret: string }> {
  const db = await getDb();
  const secret = newSecret();
  await db.transaction(async (tx) => {
    const row = await lockedWebhook(tx, organizationId, webhookId);
    await tx
      .update(t.webhooks)
      .set({
        secretBox: sealSecret(secret, secretContext(webhookId)),
        previousSecretBox: row.secretBox,
        previousSecretUntil: new Date(now.getTime() + PREVIOUS_SECRET_MS),
        updatedAt: now,
      })
      .where(eq(t.webhooks.id, webhookId));
    await recordAuditEvent(tx, {
      ...source,
      organizationId,
      action: 'webhook.secret_rotated',
      target: webhookTarget(row),
    });
  });
  return { secret };
}

/** Queues one `webhook.test` message for the endpoint, delivered like any other. */
export async function queueTestEvent(organizationId: string, webhookId: string, now = new Date()): Promise<void> {
  const db = await getDb();
  const [row] = await db
    .select({ id: t.webhooks.id })
    .from(t.webhooks)
    .where(and(eq(t.webhooks.id, webhookId), eq(t.webhooks.organizationId, organizationId)));
  if (!row) throw idNotFound('webhook', webhookId);
  await db.insert(t.webhookDeliveries).values({
    organizationId,
    webhookId,
    messageId: randomUUID(),
    eventType: 'webhook.test',
    payload: { webhookId, message: 'A test event from the console.', sentAt: now.toISOString() },
    nextAttemptAt: now,
  });
}

export async function listWebhookAttempts(
  organizationId: string,
  webhookId: string,
  query: PageQuery,
): Promise<Page<WebhookAttempt>> {
  await getWebhook(organizationId, webhookId);
  const db = await getDb();
  const a = t.webhookAttempts;
  const rows = await db
    .select({
      id: a.id,
      messageId: t.webhookDeliveries.messageId,
      eventType: t.webhookDeliveries.eventType,
      attempt: a.attempt,
      status: a.status,
      durationMs: a.durationMs,
      error: a.error,
      at: a.at,
      nextAttemptAt: a.nextAttemptAt,
    })
    .from(a)
    .innerJoin(t.webhookDeliveries, eq(t.webhookDeliveries.id, a.deliveryId))
    .where(and(eq(a.webhookId, webhookId), afterCursor(query.cursor, a.at, a.id, 'desc')))
    .orderBy(desc(a.at), desc(a.id))
    .limit(query.limit + 1);
  return toPage(
    rows,
    query.limit,
    (r) => r.at,
    (r) => ({
      id: r.id,
      messageId: r.messageId,
      eventType: r.eventType,
      attempt: r.attempt,
      status: r.status,
      durationMs: r.durationMs,
      ...(r.error ? { error: r.error } : {}),
      at: r.at.toISOString(),
      ...(r.nextAttemptAt ? { nextAttemptAt: r.nextAttemptAt.toISOString() } : {}),
    }),
  );
}

/** Queues the message of an attempt again, now; its retry schedule starts over. */
export async function redeliver(organizationId: string, webhookId: string, attemptId: string): Promise<void> {
  const db = await getDb();
  const moved = await queryRows<{ id: string }>(
    db,
    sql`
    update webhook_deliveries d
    set state = 'pending', next_attempt_at = now(), schedule_from = d.attempts, locked_until = null
    from webhook_attempts a
    where a.id = ${attemptId}::uuid and a.webhook_id = ${webhookId}::uuid and a.organization_id = ${organizationId}::uuid
      and d.id = a.delivery_id and (d.locked_until is null or d.locked_until < now())
    returning d.id`,
  );
  if (moved.length > 0) return;
  // Nothing moved: the webhook's own 404 first (it names the id), else the attempt's.
  await getWebhook(organizationId, webhookId);
  throw notFound('No such delivery.');
}
