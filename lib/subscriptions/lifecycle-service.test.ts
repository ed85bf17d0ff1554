import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import {
  insertTestQueue,
  insertTestSubscription,
  newTestProject,
  onBothDatabases,
} from '../../server/testing/test-database';
import { insertTestMessages } from '../../server/testing/queue-messages';
import { SYSTEM_ACTOR } from '../audit/source';
import { openSecret } from '../crypto/secret-box';
import type { AuditSource } from '../db/audit-types';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import {
  createSubscription,
  deleteSubscription,
  MAX_SUBSCRIPTIONS_PER_QUEUE,
  rotateSubscriptionSecret,
} from './lifecycle-service';
import { createSubscriptionBody } from './schema';
import { subscriptionSecretContext } from './secret';

process.env.ENCRYPTION_KEY ??= randomBytes(32).toString('base64');

const source: AuditSource = { actor: SYSTEM_ACTOR, context: { requestId: 'req_1', ip: null, userAgent: null } };
const target = { kind: 'https', url: 'https://hooks.example.com/orders' };
const body = (queueId: string, extra: object = {}) => createSubscriptionBody.parse({ queueId, target, ...extra });

async function rowOf(id: string) {
  const [row] = await (await getDb()).select().from(t.subscriptions).where(eq(t.subscriptions.id, id));
  return row;
}

async function countIn(queueId: string) {
  return (await (await getDb()).select().from(t.subscriptions).where(eq(t.subscriptions.queueId, queueId))).length;
}

await onBothDatabases('subscription lifecycle', 'sub-lifecycle', () => {
  it('creates with the defaults, a healthy status and a sealed secret answered once, and writes its event', async () => {
    const { scope, events } = await newTestProject('Create');
    const queue = await insertTestQueue(scope);
    const created = await createSubscription(scope, body(queue.id), source);
    expect(created).toMatchObject({
      queueId: queue.id,
      state: 'active',
      batchSize: 10,
      maxConcurrency: 10,
      target: { ...target, timeoutSeconds: 30 },
      retryPolicy: { maxAttempts: 5, minBackoffSeconds: 10, maxBackoffSeconds: 600 },
      status: { health: 'healthy', lastError: null, lastSuccessAt: null },
    });
    expect(created.slug).toMatch(/^qsb_[a-z0-9]{12}$/);
    expect(created.signingSecret).toMatch(/^whsec_/);
    const row = await rowOf(created.id);
    expect(openSecret(row.secretBox!, subscriptionSecretContext(created.id))).toBe(created.signingSecret);
    const [event] = await events();
    expect(event).toMatchObject({ action: 'subscription.created', target: { id: created.id, name: created.slug } });
    expect(event.changes.map((c) => c.field)).toEqual([
      'batchSize',
      'maxConcurrency',
      'queueId',
      'retryPolicy',
      'state',
      'target',
    ]);
    expect(JSON.stringify(event)).not.toContain(created.signingSecret);
  });

  it('an unknown queue or another project’s is 400 at queueId, and stores nothing', async () => {
    const { scope, events } = await newTestProject('Unknown queue');
    const elsewhere = await insertTestQueue((await newTestProject('Elsewhere')).scope);
    for (const queueId of [randomUUID(), elsewhere.id])
      await expect(createSubscription(scope, body(queueId), source)).rejects.toMatchObject({
        code: 'invalid_request',
        issues: [{ path: 'queueId' }],
      });
    expect(await countIn(elsewhere.id)).toBe(0);
    expect(await events()).toEqual([]);
  });

  it(`a queue takes ${MAX_SUBSCRIPTIONS_PER_QUEUE}, even when the last places are asked for at once`, async () => {
    const { scope, events } = await newTestProject('Quota');
    const queue = await insertTestQueue(scope);
    for (let i = 0; i < MAX_SUBSCRIPTIONS_PER_QUEUE - 2; i++)
      await insertTestSubscription(scope, { queueId: queue.id });
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, () => createSubscription(scope, body(queue.id, { state: 'paused' }), source)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    const refused = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason);
    expect(refused).toHaveLength(2);
    expect(refused[0]).toMatchObject({
      code: 'quota_exceeded',
      status: 409,
      quota: {
        id: 'subscriptions_per_queue',
        kind: 'allocation',
        limit: MAX_SUBSCRIPTIONS_PER_QUEUE,
        used: MAX_SUBSCRIPTIONS_PER_QUEUE,
        scope: 'resource',
        scopeResourceName: `organizations/${scope.organizationId}/projects/${scope.projectId}/queues/${queue.id}`,
      },
    });
    expect(await countIn(queue.id)).toBe(MAX_SUBSCRIPTIONS_PER_QUEUE);
    expect(await events()).toHaveLength(2);
  });

  it('delete takes the backlog, deliveries, minutes and the counters’ row, with its event; again is 404', async () => {
    const { scope, events, db } = await newTestProject('Delete');
    const sub = await insertTestSubscription(scope);
    const kept = await insertTestSubscription(scope, { queueId: sub.queueId });
    await insertTestMessages(sub, [{}, { state: 'dead', deadLetteredAt: new Date() }]);
    await insertTestMessages(kept, [{}]);
    await db.insert(t.subscriptionMinutes).values({ subscriptionId: sub.id, minute: new Date(), delivered: 1 });
    await db.insert(t.subscriptionDeliveries).values({
      organizationId: scope.organizationId,
      subscriptionId: sub.id,
      startedAt: new Date(),
      leaseUntil: new Date(),
      messages: 1,
    });
    await deleteSubscription(scope, sub.id, source);
    const of = (
      table: typeof t.subscriptionMessages | typeof t.subscriptionMinutes | typeof t.subscriptionDeliveries,
    ) => db.select().from(table).where(eq(table.subscriptionId, sub.id));
    expect(await of(t.subscriptionMessages)).toEqual([]);
    expect(await of(t.subscriptionMinutes)).toEqual([]);
    expect(await of(t.subscriptionDeliveries)).toEqual([]);
    const backlogs = await db.select().from(t.subscriptionBacklogs);
    expect(backlogs.find((b) => b.subscriptionId === sub.id)).toBeUndefined();
    expect(backlogs.find((b) => b.subscriptionId === kept.id)).toMatchObject({ pending: 1, dead: 0 });
    expect((await events()).map((e) => [e.action, e.target.id])).toEqual([['subscription.deleted', sub.id]]);
    await expect(deleteSubscription(scope, sub.id, source)).rejects.toMatchObject({ code: 'not_found' });
    await expect(deleteSubscription({ ...scope, projectId: randomUUID() }, kept.id, source)).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('rotate gives a first secret to a subscription without one, then keeps the old one signing for 24 hours', async () => {
    const { scope, events } = await newTestProject('Rotate');
    const sub = await insertTestSubscription(scope);
    const now = new Date();
    const first = await rotateSubscriptionSecret(scope, sub.id, source, now);
    const afterFirst = await rowOf(sub.id);
    expect(openSecret(afterFirst.secretBox!, subscriptionSecretContext(sub.id))).toBe(first.signingSecret);
    expect(afterFirst).toMatchObject({ previousSecretBox: null, previousSecretUntil: null });
    const second = await rotateSubscriptionSecret(scope, sub.id, source, now);
    const afterSecond = await rowOf(sub.id);
    expect(openSecret(afterSecond.secretBox!, subscriptionSecretContext(sub.id))).toBe(second.signingSecret);
    expect(afterSecond.previousSecretBox).toBe(afterFirst.secretBox);
    expect(afterSecond.previousSecretUntil!.getTime()).toBe(now.getTime() + 24 * 3_600_000);
    expect(afterSecond.updatedAt.getTime()).toBeGreaterThan(afterFirst.updatedAt.getTime());
    expect((await events()).map((e) => e.action)).toEqual([
      'subscription.secret_rotated',
      'subscription.secret_rotated',
    ]);
    await expect(rotateSubscriptionSecret(scope, randomUUID(), source)).rejects.toMatchObject({ code: 'not_found' });
  });
});
