import { randomUUID } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import { changesBetween } from '../audit/changes';
import { projectResourceEvent } from '../audit/project-event';
import { recordAuditEvent } from '../audit/record';
import { sealSecret } from '../crypto/secret-box';
import type { AuditSource } from '../db/audit-types';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { newSigningSecret } from '../delivery/signing';
import { allocationQuotaExceeded, invalidRequest, notFound } from '../errors';
import { newSlug } from '../slug';
import { PREVIOUS_SECRET_MS } from '../webhooks/service';
import { DEFAULT_RETRY_POLICY, type CreatedSubscription, type SubscriptionCreate } from './schema';
import { mergeRetryPolicy, retryColumns } from './retry-policy';
import { subscriptionSecretContext } from './secret';
import { editable, oneSubscription, toSubscription, type SubscriptionScope } from './service';

/** PRODUCT.md: a queue has at most this many subscriptions. */
export const MAX_SUBSCRIPTIONS_PER_QUEUE = 10;

const queueResourceName = (scope: SubscriptionScope, queueId: string) =>
  `organizations/${scope.organizationId}/projects/${scope.projectId}/queues/${queueId}`;

/**
 * A new subscription of a queue of the same project, with its first signing secret (answered once, stored sealed)
 * and its event, in one transaction. The queue's row lock orders concurrent creates on one queue, so two of them
 * cannot both take its last place, on any instance. An unknown or another project's queue is 400 at `queueId`.
 */
export async function createSubscription(
  scope: SubscriptionScope,
  body: SubscriptionCreate,
  source: AuditSource,
): Promise<CreatedSubscription> {
  const id = randomUUID();
  const secret = newSigningSecret();
  // The schema already checked the merged policy; the merge only fills the defaults in.
  const retry = mergeRetryPolicy(DEFAULT_RETRY_POLICY, body.retryPolicy ?? {});
  if (!retry.ok) throw invalidRequest(retry.issues);
  const db = await getDb();
  const row = await db.transaction(async (tx) => {
    const [queue] = await tx
      .select({ id: t.queues.id })
      .from(t.queues)
      .where(
        and(
          eq(t.queues.id, body.queueId),
          eq(t.queues.organizationId, scope.organizationId),
          eq(t.queues.projectId, scope.projectId),
        ),
      )
      .for('update');
    if (!queue) throw invalidRequest([{ path: 'queueId', message: 'No such queue in this project.' }]);
    const [{ used }] = await tx
      .select({ used: count() })
      .from(t.subscriptions)
      .where(eq(t.subscriptions.queueId, queue.id));
    if (used >= MAX_SUBSCRIPTIONS_PER_QUEUE)
      throw allocationQuotaExceeded(
        `A queue has at most ${MAX_SUBSCRIPTIONS_PER_QUEUE} subscriptions; delete one of this queue's first.`,
        {
          id: 'subscriptions_per_queue',
          limit: MAX_SUBSCRIPTIONS_PER_QUEUE,
          used,
          scope: 'resource',
          scopeResourceName: queueResourceName(scope, queue.id),
        },
      );
    const [created] = await tx
      .insert(t.subscriptions)
      .values({
        id,
        ...scope,
        queueId: queue.id,
        slug: newSlug('qsb'),
        state: body.state,
        batchSize: body.batchSize,
        maxConcurrency: body.maxConcurrency,
        target: body.target,
        ...retryColumns(retry.policy),
        secretBox: sealSecret(secret, subscriptionSecretContext(id)),
      })
      .returning();
    // Its backlog counter from the start, so the first concurrent publishes to it already count one after another.
    await tx.insert(t.subscriptionBacklogs).values({ subscriptionId: id });
    const settings = { queueId: created.queueId, state: created.state, ...editable(created) };
    await recordAuditEvent(
      tx,
      projectResourceEvent(source, 'subscription.created', created, changesBetween({}, settings)),
    );
    return created;
  });
  return { ...toSubscription(row), signingSecret: secret };
}

/**
 * Deletes a subscription and its backlog, with its event, in one transaction. The foreign keys take its messages,
 * deliveries and minutes; the backlog counters' trigger writes their row again as those messages go, so it goes last.
 */
export async function deleteSubscription(scope: SubscriptionScope, id: string, source: AuditSource): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const [row] = await tx.delete(t.subscriptions).where(oneSubscription(scope, id)).returning();
    if (!row) throw notFound('Subscription not found.');
    await tx.delete(t.subscriptionBacklogs).where(eq(t.subscriptionBacklogs.subscriptionId, id));
    await recordAuditEvent(tx, projectResourceEvent(source, 'subscription.deleted', row, []));
  });
}

/**
 * A new signing secret, answered once. The current one (if any: a subscription made before deliveries existed has
 * none) keeps signing beside it for 24 hours, as a webhook endpoint's does.
 */
export async function rotateSubscriptionSecret(
  scope: SubscriptionScope,
  id: string,
  source: AuditSource,
  now = new Date(),
): Promise<{ signingSecret: string }> {
  const secret = newSigningSecret();
  const db = await getDb();
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(t.subscriptions).where(oneSubscription(scope, id)).for('update');
    if (!row) throw notFound('Subscription not found.');
    await tx
      .update(t.subscriptions)
      .set({
        secretBox: sealSecret(secret, subscriptionSecretContext(id)),
        previousSecretBox: row.secretBox,
        previousSecretUntil: row.secretBox ? new Date(now.getTime() + PREVIOUS_SECRET_MS) : null,
        // Strictly later than the previous value, so a change is always visible in updatedAt.
        updatedAt: new Date(Math.max(now.getTime(), row.updatedAt.getTime() + 1)),
      })
      .where(oneSubscription(scope, id));
    await recordAuditEvent(tx, projectResourceEvent(source, 'subscription.secret_rotated', row, []));
  });
  return { signingSecret: secret };
}
