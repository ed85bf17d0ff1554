import { eq, inArray, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import {
  insertTestQueue,
  insertTestSubscription,
  newTestProject,
  onBothDatabases,
} from '../../server/testing/test-database';
import { SYSTEM_ACTOR } from '../audit/source';
import type { AuditSource } from '../db/audit-types';
import { watchStatements } from '../db/client';
import * as t from '../db/schema';
import { publishMessages } from './publish-service';
import { onPublished } from './published';
import { createQueue, deleteQueue, getQueue, updateQueue } from './service';

const source: AuditSource = { actor: SYSTEM_ACTOR, context: { requestId: 'req_1', ip: null, userAgent: null } };

/** Runs `work` with an environment variable set, and puts it back. */
async function withEnv<T>(name: string, value: string, work: () => Promise<T>): Promise<T> {
  process.env[name] = value;
  try {
    return await work();
  } finally {
    delete process.env[name];
  }
}

await onBothDatabases('queues', 'queues-service', () => {
  it('create, change and delete each write their event; the same retention changes nothing', async () => {
    const { scope, events } = await newTestProject('Queues');
    const queue = await createQueue(scope, { name: 'orders', retentionSeconds: 3600 }, source);
    expect(queue).toMatchObject({ name: 'orders', retentionSeconds: 3600, slug: expect.stringMatching(/^que_/) });
    expect(queue.resourceName).toBe(
      `organizations/${scope.organizationId}/projects/${scope.projectId}/queues/${queue.id}`,
    );
    expect(await updateQueue(scope, queue.id, { retentionSeconds: 3600 }, source)).toEqual(queue);
    const changed = await updateQueue(scope, queue.id, { retentionSeconds: 60 }, source);
    expect(Date.parse(changed.updatedAt)).toBeGreaterThan(Date.parse(queue.updatedAt));
    await deleteQueue(scope, queue.id, source);
    await expect(getQueue(scope, queue.id)).rejects.toMatchObject({ code: 'not_found' });
    const written = await events();
    expect(written.map((e) => e.action)).toEqual(['queue.created', 'queue.updated', 'queue.deleted']);
    expect(written[0].target).toEqual({ type: 'queue', id: queue.id, name: queue.slug });
    expect(written[0].changes).toEqual([
      { field: 'name', from: null, to: 'orders' },
      { field: 'retentionSeconds', from: null, to: 3600 },
    ]);
    expect(written[1].changes).toEqual([{ field: 'retentionSeconds', from: 3600, to: 60 }]);
  });

  it('a taken name is 409, and a project at QUEUES_MAX_PER_PROJECT refuses the next with its quota', async () => {
    const { scope, events, db } = await newTestProject('Quota');
    // No retention: four days, PRODUCT.md's default.
    expect((await createQueue(scope, { name: 'a' }, source)).retentionSeconds).toBe(345_600);
    await expect(createQueue(scope, { name: 'a', retentionSeconds: 60 }, source)).rejects.toMatchObject({
      code: 'queue_name_taken',
      status: 409,
    });
    await withEnv('QUEUES_MAX_PER_PROJECT', '2', async () => {
      await createQueue(scope, { name: 'b', retentionSeconds: 60 }, source);
      const refused = await createQueue(scope, { name: 'c', retentionSeconds: 60 }, source).catch((e: unknown) => e);
      expect(refused).toMatchObject({ code: 'quota_exceeded', status: 409 });
      expect((refused as { body: () => unknown }).body()).toMatchObject({
        error: {
          code: 'quota_exceeded',
          quota: {
            id: 'queues_per_project',
            kind: 'allocation',
            limit: 2,
            used: 2,
            scope: 'project',
            scopeResourceName: `organizations/${scope.organizationId}/projects/${scope.projectId}`,
          },
        },
      });
    });
    expect((await db.select().from(t.queues).where(eq(t.queues.projectId, scope.projectId))).length).toBe(2);
    expect((await events()).map((e) => e.action)).toEqual(['queue.created', 'queue.created']);
  });

  it('creations at once count one after another: exactly QUEUES_MAX_PER_PROJECT of them pass', async () => {
    const { scope, db } = await newTestProject('Race');
    const outcomes = await withEnv('QUEUES_MAX_PER_PROJECT', '3', () =>
      Promise.allSettled(
        ['a', 'b', 'c', 'd', 'e', 'f'].map((name) => createQueue(scope, { name, retentionSeconds: 60 }, source)),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
    for (const o of outcomes.filter((o) => o.status === 'rejected'))
      expect((o as PromiseRejectedResult).reason).toMatchObject({ code: 'quota_exceeded' });
    expect(await db.select().from(t.queues).where(eq(t.queues.projectId, scope.projectId))).toHaveLength(3);
  });

  it('a queue a subscription reads from is not deleted: 409 queue_in_use, nothing changed', async () => {
    const { scope, events } = await newTestProject('InUse');
    const queue = await insertTestQueue(scope, 'orders');
    await insertTestSubscription(scope, { queueId: queue.id });
    await expect(deleteQueue(scope, queue.id, source)).rejects.toMatchObject({ code: 'queue_in_use' });
    expect((await getQueue(scope, queue.id)).id).toBe(queue.id);
    expect(await events()).toEqual([]);
  });

  it('publish stores each message once and pending for every subscription, from its delay, ids in order', async () => {
    const { scope, db } = await newTestProject('Publish');
    const queue = await insertTestQueue(scope, 'orders');
    const subs = [
      await insertTestSubscription(scope, { queueId: queue.id }),
      await insertTestSubscription(scope, { queueId: queue.id, state: 'paused' }),
    ];
    const other = await insertTestSubscription(scope);
    const woken: string[] = [];
    const stop = onPublished((id) => woken.push(id));
    const before = Date.now();
    const { messageIds } = await publishMessages(scope, queue.id, [
      { body: { n: 1 }, attributes: { kind: 'a' } },
      { body: null, delaySeconds: 30 },
      { body: 'three' },
    ]);
    stop();
    expect(woken).toEqual([queue.id]);
    const stored = await db.select().from(t.queueMessages).where(inArray(t.queueMessages.id, messageIds));
    const byId = new Map(stored.map((m) => [m.id, m]));
    expect(messageIds.map((id) => byId.get(id)?.body)).toEqual([{ n: 1 }, null, 'three']);
    expect(messageIds.map((id) => byId.get(id)?.attributes)).toEqual([{ kind: 'a' }, {}, {}]);
    const rows = await db
      .select()
      .from(t.subscriptionMessages)
      .where(inArray(t.subscriptionMessages.messageId, messageIds));
    expect(rows).toHaveLength(6);
    expect(new Set(rows.map((r) => r.subscriptionId))).toEqual(new Set(subs.map((s) => s.id)));
    for (const row of rows) {
      const published = byId.get(row.messageId)!.publishedAt.getTime();
      expect(row).toMatchObject({ state: 'pending', attempts: 0, deliveryId: null });
      expect(row.publishedAt.getTime()).toBe(published);
      expect(row.availableAt.getTime()).toBe(published + (row.messageId === messageIds[1] ? 30_000 : 0));
      expect(published).toBeGreaterThanOrEqual(before - 1);
    }
    const backlogs = await db
      .select()
      .from(t.subscriptionBacklogs)
      .where(
        inArray(
          t.subscriptionBacklogs.subscriptionId,
          [...subs, other].map((s) => s.id),
        ),
      );
    expect(backlogs.map((b) => b.pending)).toEqual([3, 3]);
  });

  it('publishes at once to one queue share a statement of at most 500 messages; each keeps its own ids', async () => {
    const { scope, db } = await newTestProject('Together');
    const queue = await insertTestQueue(scope, 'orders');
    const other = await insertTestQueue(scope, 'events');
    const sub = await insertTestSubscription(scope, { queueId: queue.id });
    const statements: unknown[][] = [];
    const stop = watchStatements((text, values) => {
      if (text.startsWith('with queue as')) statements.push(values);
    });
    const sizes = [1, 2, 100, 100, 100, 100, 100, 3];
    const published = await Promise.all([
      ...sizes.map((n) =>
        publishMessages(
          scope,
          queue.id,
          Array.from({ length: n }, (_, i) => ({ body: { n, i } })),
        ),
      ),
      publishMessages(scope, other.id, [{ body: 'elsewhere' }]),
    ]);
    stop();
    // One statement for the other queue; the first 403 messages of this one in one, then the last 103.
    expect(statements.map((v) => [v[0], v[4]])).toEqual([
      [queue.id, 403],
      [other.id, 1],
      [queue.id, 103],
    ]);
    for (const [i, n] of sizes.entries()) {
      const { messageIds } = published[i];
      expect(messageIds).toHaveLength(n);
      const stored = await db.select().from(t.queueMessages).where(inArray(t.queueMessages.id, messageIds));
      const byId = new Map(stored.map((m) => [m.id, m.body]));
      expect(messageIds.map((id) => byId.get(id))).toEqual(messageIds.map((_, j) => ({ n, i: j })));
    }
    const [backlog] = await db
      .select()
      .from(t.subscriptionBacklogs)
      .where(eq(t.subscriptionBacklogs.subscriptionId, sub.id));
    expect(backlog.pending).toBe(506);
  });

  it('when a shared statement fails, each of its publishes runs alone and answers its own outcome', async () => {
    const { scope, db } = await newTestProject('Alone');
    const queue = await insertTestQueue(scope, 'orders');
    await insertTestSubscription(scope, { queueId: queue.id });
    // A real refusal of any statement that stores more than 3 of this queue's messages at once.
    await db.execute(
      sql.raw(`create function refuse_many() returns trigger language plpgsql as $$
        begin
          if (select count(*) from stored where queue_id = '${queue.id}') > 3 then raise exception 'too many'; end if;
          return null;
        end $$`),
    );
    await db.execute(
      sql.raw(`create trigger refuse_many after insert on queue_messages referencing new table as stored
        for each statement execute function refuse_many()`),
    );
    try {
      const statements: number[] = [];
      const stop = watchStatements((text, values) => {
        if (text.startsWith('with queue as')) statements.push(values[4] as number);
      });
      const outcomes = await Promise.allSettled(
        [2, 2, 4].map((n) =>
          publishMessages(
            scope,
            queue.id,
            Array.from({ length: n }, () => ({ body: n })),
          ),
        ),
      );
      stop();
      // Together (8) refused; then each alone: the two of 2 stored, the one of 4 refused.
      expect(statements).toEqual([8, 2, 2, 4]);
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
      const stored = await db.select().from(t.queueMessages).where(eq(t.queueMessages.queueId, queue.id));
      expect(stored).toHaveLength(4);
    } finally {
      await db.execute(sql.raw('drop trigger refuse_many on queue_messages'));
      await db.execute(sql.raw('drop function refuse_many()'));
    }
  });

  it('a backlog at QUEUE_MAX_BACKLOG refuses a publish whole, naming the subscription; another queue is 404', async () => {
    const { scope, db } = await newTestProject('Backlog');
    const queue = await insertTestQueue(scope, 'orders');
    const sub = await insertTestSubscription(scope, { queueId: queue.id });
    await withEnv('QUEUE_MAX_BACKLOG', '3', async () => {
      await publishMessages(scope, queue.id, [{ body: 1 }, { body: 2 }]);
      const refused = await publishMessages(scope, queue.id, [{ body: 3 }, { body: 4 }]).catch((e: unknown) => e);
      expect((refused as { body: () => unknown }).body()).toMatchObject({
        error: {
          code: 'quota_exceeded',
          quota: {
            id: 'queue_backlog',
            kind: 'allocation',
            limit: 3,
            used: 2,
            scope: 'resource',
            scopeResourceName: `organizations/${scope.organizationId}/projects/${scope.projectId}/subscriptions/${sub.id}`,
          },
        },
      });
      await publishMessages(scope, queue.id, [{ body: 3 }]);
    });
    expect((await db.select().from(t.queueMessages).where(eq(t.queueMessages.queueId, queue.id))).length).toBe(3);
    // Publishes at once count one after another against the backlog they share.
    const outcomes = await withEnv('QUEUE_MAX_BACKLOG', '9', () =>
      Promise.allSettled([1, 2, 3, 4].map(() => publishMessages(scope, queue.id, [{ body: 1 }, { body: 2 }]))),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
    const [backlog] = await db
      .select()
      .from(t.subscriptionBacklogs)
      .where(eq(t.subscriptionBacklogs.subscriptionId, sub.id));
    expect(backlog.pending).toBe(9);
    const elsewhere = await newTestProject('Elsewhere');
    await expect(publishMessages(elsewhere.scope, queue.id, [{ body: 1 }])).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
