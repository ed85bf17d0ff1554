import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sealSecret } from '../crypto/secret-box';
import { getDb, watchStatements, type Tx } from '../db/client';
import { planNodes, planOfText, type PlanNode } from '../db/list-plans';
import * as t from '../db/schema';
import type { SendResult } from '../delivery/send';
import {
  insertTestQueue,
  insertTestSubscription,
  newTestProject,
  onBothDatabases,
} from '../../server/testing/test-database';
import { sendResult } from '../../server/testing/send-results';
import { batchOutcome, recordDeliveries, recordDelivery, subscriptionDeliveryLoop } from './delivery';
import { claimBatches, MAX_BATCH_BYTES, recordBatches, releaseBatch, type ClaimedBatch } from './delivery-service';
import { expireMessages } from './expiry-service';
import { countMinute, flushMinuteCounts } from './minute-counts';
import { subscriptionSecretContext } from './secret';

process.env.ENCRYPTION_KEY ??= randomBytes(32).toString('base64');
process.env.WEBHOOK_ALLOW_LOOPBACK = '1';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;

/** A receiver that answers each request as `answer` says, and keeps what it got. */
type Received = { headers: IncomingMessage['headers']; body: string };
const received: Received[] = [];
let answer: (got: Received, res: ServerResponse) => void = (_, res) => void res.writeHead(200).end();
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
  req.on('end', () => {
    const got = { headers: req.headers, body };
    received.push(got);
    answer(got, res);
  });
});
beforeAll(() => new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve)));
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
const targetUrl = () => `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/sink`;

/** A subscription to a new queue with `count` messages published to it, ready now. */
async function subscriptionWithBacklog(count: number, values: Partial<typeof t.subscriptions.$inferInsert> = {}) {
  const { db, scope } = await newTestProject('Deliveries');
  const queue = await insertTestQueue(scope, 'orders');
  const id = randomUUID();
  const sub = await insertTestSubscription(scope, {
    id,
    queueId: queue.id,
    target: { kind: 'https', url: targetUrl(), timeoutSeconds: 5 },
    secretBox: sealSecret(SECRET, subscriptionSecretContext(id)),
    ...values,
  });
  const publishedAt = new Date(Date.now() - 1_000);
  const messages = Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    organizationId: scope.organizationId,
    queueId: queue.id,
    body: { n: i },
    attributes: { kind: 'order' },
    publishedAt: new Date(publishedAt.getTime() + i),
  }));
  if (count > 0) {
    await db.insert(t.queueMessages).values(messages);
    await db.insert(t.subscriptionMessages).values(
      messages.map((m) => ({
        subscriptionId: sub.id,
        messageId: m.id,
        availableAt: m.publishedAt,
        publishedAt: m.publishedAt,
      })),
    );
  }
  return { db, scope, sub, messages };
}

const ok = (answerText = '') => sendResult(200, { answer: answerText });
const failedWith = (status: number | null) =>
  sendResult(status, { error: null, errorClass: status ? null : 'timeout' });

const record = (batch: ClaimedBatch, result: SendResult) => recordDelivery(batch, result, new Date());

async function messageRows(subscriptionId: string) {
  return (await getDb())
    .select()
    .from(t.subscriptionMessages)
    .where(eq(t.subscriptionMessages.subscriptionId, subscriptionId));
}

await onBothDatabases('subscription deliveries', 'sub-delivery', () => {
  it('claims batches of at most batchSize and never more than maxConcurrency in flight; a change applies at the next claim', async () => {
    const { db, sub } = await subscriptionWithBacklog(20, { batchSize: 3, maxConcurrency: 2 });
    const first = (await claimBatches(100)).filter((b) => b.subscriptionId === sub.id);
    expect(first.map((b) => b.messages.length)).toEqual([3, 3]);
    expect((await claimBatches(100)).filter((b) => b.subscriptionId === sub.id)).toEqual([]);
    await record(first[0], ok());
    const next = (await claimBatches(100)).filter((b) => b.subscriptionId === sub.id);
    expect(next.map((b) => b.messages.length)).toEqual([3]);
    // Live change: a higher cap lets the next claim take more; the in-flight ones are untouched.
    await db.update(t.subscriptions).set({ maxConcurrency: 5, batchSize: 10 }).where(eq(t.subscriptions.id, sub.id));
    const more = (await claimBatches(100)).filter((b) => b.subscriptionId === sub.id);
    // 3 delivered, 6 in flight, 11 ready: two of the three free slots take them, in batches of up to 10.
    expect(more.map((b) => b.messages.length).sort((a, b) => a - b)).toEqual([1, 10]);
    expect(new Set([...first, ...next, ...more].flatMap((b) => b.messages.map((m) => m.id))).size).toBe(20);
  });

  it("a record refills: the next batch is leased in the finished one's place, never past the cap, never while paused", async () => {
    const { db, sub } = await subscriptionWithBacklog(12, { batchSize: 2, maxConcurrency: 2 });
    const refilled = async (batch: ClaimedBatch, refill = true) =>
      (await recordDeliveries([{ batch, result: ok(), at: new Date(), refill }]))[0];
    const [a, b] = (await claimBatches(100)).filter((x) => x.subscriptionId === sub.id);
    // Its place is taken by the next two messages, in the same transaction: nothing is left for a claim.
    const next = await refilled(a);
    expect(next).toMatchObject({ recorded: true, delivered: 2, next: { subscriptionId: sub.id } });
    expect(next.next!.messages.map((m) => m.id)).toEqual(
      (await messageRows(sub.id)).filter((m) => m.deliveryId === next.next!.deliveryId).map((m) => m.messageId),
    );
    expect(next.next!.messages).toHaveLength(2);
    expect((await claimBatches(100)).filter((x) => x.subscriptionId === sub.id)).toEqual([]);
    // Not asked: the place is freed, and the next claim takes it.
    expect((await refilled(b, false)).next).toBeUndefined();
    const [c] = (await claimBatches(100)).filter((x) => x.subscriptionId === sub.id);
    // A lower cap: a record over it frees its place instead.
    await db.update(t.subscriptions).set({ maxConcurrency: 1 }).where(eq(t.subscriptions.id, sub.id));
    expect((await refilled(next.next!)).next).toBeUndefined();
    // Paused: nothing new starts.
    await db.update(t.subscriptions).set({ state: 'paused' }).where(eq(t.subscriptions.id, sub.id));
    expect((await refilled(c)).next).toBeUndefined();
    await db.update(t.subscriptions).set({ state: 'active' }).where(eq(t.subscriptions.id, sub.id));
    // A record whose lease has (nearly) run out is not replaced: a claim may not have counted it.
    const [d] = (await claimBatches(100)).filter((x) => x.subscriptionId === sub.id);
    await db
      .update(t.subscriptionDeliveries)
      .set({ leaseUntil: new Date(Date.now() + 2_000) })
      .where(eq(t.subscriptionDeliveries.id, d.deliveryId));
    expect((await refilled(d)).next).toBeUndefined();
    // A second record of the same attempt records nothing and leases nothing.
    expect(await refilled(d)).toMatchObject({ recorded: false });
    expect((await refilled(d)).next).toBeUndefined();
    expect((await messageRows(sub.id)).filter((m) => m.deliveryId !== null)).toEqual([]);
  });

  it('two refills of one subscription at once lease different messages: none goes out twice', async () => {
    // Records of one subscription mostly wait for each other (on its row or its backlog's); the lease itself must
    // not count on it. Two refills here record nothing (migration 0027's lease, called as its refill does), so
    // nothing but the lease can keep them apart.
    const { sub } = await subscriptionWithBacklog(30, { batchSize: 5, maxConcurrency: 4 });
    const [a, b, ...rest] = (await claimBatches(100)).filter((x) => x.subscriptionId === sub.id);
    // Two places free: one for each refill.
    for (const batch of rest) await releaseBatch(batch.deliveryId);
    const db = await getDb();
    const refill = async (tx: Tx, batch: ClaimedBatch) => {
      await tx.execute(sql`select id from subscriptions where id = ${sub.id}::uuid for share`);
      const rows = (
        await tx.execute(sql`select * from subscription_lease_v1(${`{${sub.id}}`}::uuid[], 0,
          ${`{${batch.deliveryId}}`}::uuid[], 30, ${MAX_BATCH_BYTES}::int, 140)`)
      ).rows as { delivery_id: string; message_id: string }[];
      return [...new Set(rows.map((r) => r.delivery_id))].map((deliveryId) => ({
        deliveryId,
        ids: rows.filter((r) => r.delivery_id === deliveryId).map((r) => r.message_id),
      }));
    };
    let leased!: () => void;
    const aLeased = new Promise<void>((resolve) => (leased = resolve));
    let commit!: () => void;
    const aCommits = new Promise<void>((resolve) => (commit = resolve));
    // The first refill's transaction stays open, its leases uncommitted, while the second runs (on PostgreSQL; the
    // embedded database runs one transaction at a time).
    const first = db.transaction(async (tx) => {
      const next = await refill(tx, a);
      leased();
      await aCommits;
      return next;
    });
    await Promise.race([aLeased, first]);
    const second = db.transaction((tx) => refill(tx, b));
    setTimeout(commit, 300);
    const batches = (await Promise.all([first, second])).flat();
    expect(batches).toHaveLength(2);
    const ids = batches.flatMap((batch) => batch.ids);
    expect(new Set(ids).size).toBe(ids.length);
    const rows = await messageRows(sub.id);
    for (const batch of batches)
      expect(
        rows
          .filter((m) => m.deliveryId === batch.deliveryId)
          .map((m) => m.messageId)
          .sort(),
      ).toEqual(batch.ids.sort());
  });

  it('a delivered batch leaves; a failed one counts an attempt and waits its backoff; maxAttempts dead-letters', async () => {
    const { sub } = await subscriptionWithBacklog(2, {
      batchSize: 10,
      retryMinBackoffSeconds: 0,
      retryMaxBackoffSeconds: 1,
      retryMaxAttempts: 2,
    });
    const [batch] = (await claimBatches(100)).filter((b) => b.subscriptionId === sub.id);
    expect(await record(batch, failedWith(503))).toMatchObject({ recorded: true, failed: 2, deadLettered: 0 });
    // The same attempt recorded twice writes nothing the second time.
    expect(await record(batch, failedWith(503))).toMatchObject({ recorded: false, failed: 0 });
    expect((await messageRows(sub.id)).map((m) => [m.state, m.attempts, m.deliveryId])).toEqual([
      ['pending', 1, null],
      ['pending', 1, null],
    ]);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const [again] = (await claimBatches(100)).filter((b) => b.subscriptionId === sub.id);
    expect(again.body).toContain('"attempt":2');
    expect(await record(again, failedWith(null))).toMatchObject({ failed: 2, deadLettered: 2 });
    const rows = await messageRows(sub.id);
    expect(rows.map((m) => [m.state, m.attempts])).toEqual([
      ['dead', 2],
      ['dead', 2],
    ]);
    expect(rows[0].lastError).toMatchObject({ class: 'timeout', status: 0 });
    const [backlog] = await (
      await getDb()
    )
      .select()
      .from(t.subscriptionBacklogs)
      .where(eq(t.subscriptionBacklogs.subscriptionId, sub.id));
    expect(backlog).toMatchObject({ pending: 0, dead: 2 });
  });

  it('{"failed": [...]} fails only those; an unknown id fails the whole batch as an invalid answer', async () => {
    const { sub } = await subscriptionWithBacklog(3, { batchSize: 3 });
    const [batch] = (await claimBatches(100)).filter((b) => b.subscriptionId === sub.id);
    const bogus = batchOutcome(batch, ok(JSON.stringify({ failed: [randomUUID()] })), new Date());
    expect(bogus).toMatchObject({ outcome: 'failed', error: { class: 'invalid_response', status: 200 } });
    const failedId = batch.messages[1].id;
    expect(await record(batch, ok(JSON.stringify({ failed: [failedId] })))).toMatchObject({ delivered: 2, failed: 1 });
    expect((await messageRows(sub.id)).map((m) => [m.messageId, m.attempts])).toEqual([[failedId, 1]]);
  });

  it('a 2xx answer that cannot be read whole fails the whole batch as invalid_response; any other body delivers', async () => {
    const { sub } = await subscriptionWithBacklog(2, { batchSize: 2 });
    const [batch] = (await claimBatches(100)).filter((b) => b.subscriptionId === sub.id);
    const [first, second] = batch.messages.map((m) => m.id);
    const outcome = (answer: string, answerWhole = true) =>
      batchOutcome(batch, { ...ok(answer), answerWhole }, new Date());
    const invalid = { outcome: 'failed', error: { class: 'invalid_response', status: 200 } };
    const failedIds = (answer: string, answerWhole = true) =>
      outcome(answer, answerWhole)
        .failed.map((f) => f.id)
        .sort();
    // Trailing words, a JSON object cut at 64 KiB, a `failed` of the wrong type, ids of no message of the batch.
    for (const answer of [
      `{"failed": ["${first}"]} and then some words`,
      `{"failed": ["${first}"]`,
      '{"failed": "all"}',
      `{"failed": [1, 2]}`,
      '{"failed": null}',
      `{"failed": ["${randomUUID()}"]}`,
    ]) {
      expect(outcome(answer), answer).toMatchObject(invalid);
      expect(failedIds(answer)).toEqual([first, second].sort());
    }
    const long = JSON.stringify({ failed: [first], padding: 'x'.repeat(70_000) });
    expect(outcome(long.slice(0, 65_536), false)).toMatchObject(invalid);
    // A byte-order mark before the object is ignored (RFC 8259 §8.1), as is white space.
    expect(outcome(`\uFEFF \n{"failed": ["${first}"]}`)).toMatchObject({ outcome: 'partial', failed: [{ id: first }] });
    // Any other body delivers the batch, whatever its length: text, HTML, empty, a JSON array or object without failed.
    for (const [answer, whole] of [
      ['x'.repeat(65_536), false],
      ['<html><body>ok</body></html>', true],
      ['', true],
      ['[1, 2]', true],
      ['{"ok": true}', true],
      ['{"failed": []}', true],
    ] as const)
      expect(outcome(answer, whole), answer.slice(0, 20)).toMatchObject({ outcome: 'delivered', failed: [] });
  });

  it('a claim takes at most its limit of batches over every subscription', async () => {
    const subs = await Promise.all(
      [1, 2, 3].map(() => subscriptionWithBacklog(10, { batchSize: 2, maxConcurrency: 5 })),
    );
    const mine = new Set(subs.map((s) => s.sub.id));
    const claimed = (await claimBatches(4)).filter((b) => mine.has(b.subscriptionId));
    expect(claimed.length).toBeLessThanOrEqual(4);
    // Each subscription's first batch before any second.
    expect(new Set(claimed.map((b) => b.subscriptionId)).size).toBe(Math.min(3, claimed.length));
    const leased = (await Promise.all(subs.map((s) => messageRows(s.sub.id))))
      .flat()
      .filter((m) => m.deliveryId !== null);
    expect(leased.length).toBe(claimed.reduce((n, b) => n + b.messages.length, 0));
  });

  it("a claim looks at each waiting subscription's first ready message, never at the whole backlog", async () => {
    // Written as `exists`, the test may be planned as one join over every pending message: a hash of the whole
    // backlog, built at every idle instance's poll (seen in the bench, with a backlog of one subscription). Each
    // subscription's own lookup, a LIMIT 1 in the ready index's order, leaves the planner no such choice.
    const { db } = await subscriptionWithBacklog(5_000);
    await subscriptionWithBacklog(1);
    await db.execute(sql`analyze subscription_messages`);
    const sent: { text: string; params: unknown[] }[] = [];
    const stop = watchStatements((text, params) => sent.push({ text, params }));
    try {
      await claimBatches(10);
    } finally {
      stop();
    }
    const claim = sent.find((s) => s.text.includes('with recursive waiting'));
    expect(claim).toBeDefined();
    const plan = await planOfText(claim!.text, claim!.params);
    // The node each read of the ready index feeds.
    const readsFeed: (PlanNode | undefined)[] = [];
    const walk = (node: PlanNode, parent?: PlanNode) => {
      if (node['Index Name'] === 'subscription_messages_ready_idx') readsFeed.push(parent);
      for (const child of node.Plans ?? []) walk(child, node);
    };
    walk(plan);
    expect(readsFeed.length).toBeGreaterThan(0);
    // Every read of it stops at its first row (the skip scan's, and each subscription's lookup).
    for (const parent of readsFeed) expect(parent?.['Node Type']).toBe('Limit');
    expect(
      planNodes(plan).filter((n) => n['Relation Name'] === 'subscription_messages' && n['Node Type'] === 'Seq Scan'),
    ).toEqual([]);
  });

  it("a batch's body stays within 1 MiB: fewer messages go rather than more bytes", async () => {
    const { db, sub, messages } = await subscriptionWithBacklog(10, { batchSize: 10, maxConcurrency: 1 });
    const big = 'x'.repeat(120 * 1024);
    for (const m of messages)
      await db.update(t.queueMessages).set({ body: { big } }).where(eq(t.queueMessages.id, m.id));
    const sizes: number[] = [];
    for (let i = 0; i < 5 && sizes.reduce((n, s) => n + s, 0) < 10; i++) {
      const [batch] = (await claimBatches(100)).filter((b) => b.subscriptionId === sub.id);
      expect(Buffer.byteLength(batch.body)).toBeLessThanOrEqual(MAX_BATCH_BYTES);
      sizes.push(batch.messages.length);
      await record(batch, ok());
    }
    expect(sizes[0]).toBe(8);
    expect(sizes.reduce((n, s) => n + s, 0)).toBe(10);
  });

  it("a message past its queue's retention is never claimed, whether or not the expiry pass has run", async () => {
    const { db, sub, messages } = await subscriptionWithBacklog(3);
    await db.update(t.queues).set({ retentionSeconds: 60 }).where(eq(t.queues.id, sub.queueId));
    await db
      .update(t.subscriptionMessages)
      .set({ publishedAt: new Date(Date.now() - 120_000) })
      .where(eq(t.subscriptionMessages.messageId, messages[0].id));
    // Redriven a moment ago: its retention counts from then.
    await db
      .update(t.subscriptionMessages)
      .set({ publishedAt: new Date(Date.now() - 120_000), deadLetteredAt: new Date() })
      .where(eq(t.subscriptionMessages.messageId, messages[1].id));
    const claimed = (await claimBatches(100)).filter((b) => b.subscriptionId === sub.id);
    expect(claimed.flatMap((b) => b.messages.map((m) => m.id)).sort()).toEqual([messages[1].id, messages[2].id].sort());
  });

  it('a 410 pauses the subscription and gives the messages back without counting an attempt', async () => {
    const { db, sub } = await subscriptionWithBacklog(2);
    const [batch] = (await claimBatches(100)).filter((b) => b.subscriptionId === sub.id);
    expect(await record(batch, failedWith(410))).toMatchObject({ paused: true, failed: 0 });
    const [row] = await db.select().from(t.subscriptions).where(eq(t.subscriptions.id, sub.id));
    expect(row).toMatchObject({ state: 'paused', lastError: { class: 'http', status: 410 } });
    // The API's pause, with its event: by the system, saying why, committed with the record.
    const events = await db
      .select()
      .from(t.auditEvents)
      .where(eq(t.auditEvents.organizationId, sub.organizationId))
      .then((rows) => rows.filter((e) => e.target.id === sub.id && e.action === 'subscription.paused'));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actor: { type: 'system' },
      target: { type: 'subscription', id: sub.id, name: sub.slug },
      projectId: sub.projectId,
      changes: [{ field: 'state', from: 'active', to: 'paused' }],
      reason: 'The target answered 410 Gone.',
    });
    expect(events[0].occurredAt.getTime()).toBe(row.updatedAt.getTime());
    expect((await messageRows(sub.id)).map((m) => [m.attempts, m.deliveryId])).toEqual([
      [0, null],
      [0, null],
    ]);
    expect((await claimBatches(100)).filter((b) => b.subscriptionId === sub.id)).toEqual([]);
  });

  it('a 410 recorded beside a success refills neither: nothing new starts for a subscription it pauses', async () => {
    const { db, sub } = await subscriptionWithBacklog(6, { batchSize: 2, maxConcurrency: 2 });
    const [a, b] = (await claimBatches(100)).filter((x) => x.subscriptionId === sub.id);
    const at = new Date();
    const counts = await recordDeliveries([
      { batch: a, result: ok(), at, refill: true },
      { batch: b, result: failedWith(410), at, refill: true },
    ]);
    expect(counts.map((c) => [c.recorded, c.delivered, c.paused, c.next])).toEqual([
      [true, 2, false, undefined],
      [true, 0, true, undefined],
    ]);
    const [row] = await db.select().from(t.subscriptions).where(eq(t.subscriptions.id, sub.id));
    expect(row.state).toBe('paused');
    expect((await messageRows(sub.id)).filter((m) => m.deliveryId !== null)).toEqual([]);
  });

  it("a new subscription's first success sets lastSuccessAt; while healthy it is written once a second at most", async () => {
    const { db, sub } = await subscriptionWithBacklog(3, { batchSize: 1, maxConcurrency: 3 });
    const lastSuccess = async () =>
      (await db.select().from(t.subscriptions).where(eq(t.subscriptions.id, sub.id)))[0].lastSuccessAt;
    expect(await lastSuccess()).toBeNull();
    const batches = (await claimBatches(100)).filter((b) => b.subscriptionId === sub.id);
    await record(batches[0], ok());
    const first = await lastSuccess();
    expect(first).toEqual(expect.any(Date));
    await record(batches[1], ok());
    expect(await lastSuccess()).toEqual(first);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await record(batches[2], ok());
    expect((await lastSuccess())!.getTime()).toBeGreaterThan(first!.getTime());
  });

  it('health turns failing at the third failure in a row and healthy at the next success, each once', async () => {
    const { db, sub } = await subscriptionWithBacklog(5, { batchSize: 1, maxConcurrency: 5, retryMaxAttempts: 10 });
    await db.insert(t.webhooks).values({
      organizationId: sub.organizationId,
      url: 'https://hooks.example.com/ops',
      events: ['subscription.*'],
      secretBox: 'unused',
    });
    const batches = (await claimBatches(100)).filter((b) => b.subscriptionId === sub.id);
    const turns = [];
    for (const b of batches.slice(0, 4)) turns.push((await record(b, failedWith(500))).turned);
    turns.push((await record(batches[4], ok())).turned);
    expect(turns).toEqual([null, null, 'failing', null, 'healthy']);
    const [row] = await db.select().from(t.subscriptions).where(eq(t.subscriptions.id, sub.id));
    expect(row).toMatchObject({ health: 'healthy', consecutiveFailures: 0, lastSuccessAt: expect.any(Date) });
    // Each turn is one webhook event for the endpoint subscribed to `subscription.*`.
    const events = await db
      .select({ type: t.webhookDeliveries.eventType })
      .from(t.webhookDeliveries)
      .where(eq(t.webhookDeliveries.organizationId, sub.organizationId))
      .orderBy(t.webhookDeliveries.createdAt);
    expect(events.map((e) => e.type)).toEqual(['subscription.failing', 'subscription.recovered']);
  });

  it('attempts recorded together move each subscription as one after the other would, in one statement', async () => {
    const first = await subscriptionWithBacklog(6, { batchSize: 1, maxConcurrency: 6, retryMaxAttempts: 10 });
    const second = await subscriptionWithBacklog(2, { batchSize: 1, maxConcurrency: 2, retryMaxAttempts: 1 });
    const claimed = await claimBatches(100);
    const of = (id: string) => claimed.filter((b) => b.subscriptionId === id);
    const [a, b] = [of(first.sub.id), of(second.sub.id)];
    expect([a.length, b.length]).toEqual([6, 2]);
    const at = new Date();
    // The first fails twice, succeeds, then fails three times: failing, at its last attempt only.
    const outcomes = [500, 500, 200, 500, 500, 500].map((status) => (status === 200 ? ok() : failedWith(status)));
    const counts = await recordDeliveries([
      ...a.map((batch, i) => ({ batch, result: outcomes[i], at })),
      { batch: b[0], result: failedWith(503), at },
      { batch: b[1], result: ok(), at },
      { batch: a[0], result: ok(), at },
    ]);
    expect(counts.map((c) => [c.recorded, c.delivered, c.failed, c.deadLettered, c.turned])).toEqual([
      [true, 0, 1, 0, null],
      [true, 0, 1, 0, null],
      [true, 1, 0, 0, null],
      [true, 0, 1, 0, null],
      [true, 0, 1, 0, null],
      [true, 0, 1, 0, 'failing'],
      [true, 0, 1, 1, null],
      [true, 1, 0, 0, null],
      // The same delivery twice: the second record changes nothing.
      [false, 0, 0, 0, null],
    ]);
    const rows = await first.db.select().from(t.subscriptions).where(eq(t.subscriptions.id, first.sub.id));
    expect(rows[0]).toMatchObject({ health: 'failing', consecutiveFailures: 3, lastSuccessAt: expect.any(Date) });
    const others = await first.db.select().from(t.subscriptions).where(eq(t.subscriptions.id, second.sub.id));
    expect(others[0]).toMatchObject({ health: 'healthy', consecutiveFailures: 0 });
    // Counted in memory once committed, written by the next flush: one row for the minute.
    await flushMinuteCounts();
    const minutes = await first.db
      .select()
      .from(t.subscriptionMinutes)
      .where(eq(t.subscriptionMinutes.subscriptionId, first.sub.id));
    expect(minutes.map((m) => [m.delivered, m.failed, m.deadLettered])).toEqual([[1, 5, 0]]);
    expect((await messageRows(second.sub.id)).map((m) => m.state)).toEqual(['dead']);
  });

  it("minute counts are written once a second, added to the minute's row; a deleted subscription's are dropped", async () => {
    const { db, sub } = await subscriptionWithBacklog(0);
    const minute = new Date(Math.floor(Date.now() / 60_000) * 60_000).toISOString();
    countMinute(sub.id, minute, { delivered: 2, failed: 1, dead: 0 });
    countMinute(sub.id, minute, { delivered: 3, failed: 0, dead: 1 });
    countMinute(randomUUID(), minute, { delivered: 1, failed: 0, dead: 0 });
    await flushMinuteCounts();
    countMinute(sub.id, minute, { delivered: 1, failed: 0, dead: 0 });
    await flushMinuteCounts();
    const rows = await db.select().from(t.subscriptionMinutes).where(eq(t.subscriptionMinutes.subscriptionId, sub.id));
    expect(rows.map((m) => [m.minute.toISOString(), m.delivered, m.failed, m.deadLettered])).toEqual([
      [minute, 6, 1, 1],
    ]);
  });

  it('two records of one subscription at once: the second counts from what the first committed', async () => {
    const { db, sub } = await subscriptionWithBacklog(2, { batchSize: 1, maxConcurrency: 2, retryMaxAttempts: 10 });
    const [first, second] = (await claimBatches(100)).filter((b) => b.subscriptionId === sub.id);
    const failure = (batch: ClaimedBatch) => ({ batch, outcome: batchOutcome(batch, failedWith(500), new Date()) });
    let commitFirst = () => {};
    let firstRecorded = () => {};
    const recorded = new Promise<void>((resolve) => (firstRecorded = resolve));
    const held = db.transaction(async (tx) => {
      await recordBatches(tx, [failure(first)]);
      firstRecorded();
      await new Promise<void>((resolve) => (commitFirst = resolve));
    });
    await recorded;
    // The second starts while the first holds the subscription's row (on PostgreSQL its statement waits for it).
    const waiting = db.transaction((tx) => recordBatches(tx, [failure(second)]));
    await new Promise((resolve) => setTimeout(resolve, 200));
    commitFirst();
    await Promise.all([held, waiting]);
    const [row] = await db.select().from(t.subscriptions).where(eq(t.subscriptions.id, sub.id));
    expect(row.consecutiveFailures).toBe(2);
  });

  it("retention expires what waited longer than the queue's retention, counted; a redriven message counts from its redrive", async () => {
    const { db, sub, messages } = await subscriptionWithBacklog(3, { state: 'paused' });
    const [queue] = await db.select().from(t.queues).where(eq(t.queues.id, sub.queueId));
    await db.update(t.queues).set({ retentionSeconds: 60 }).where(eq(t.queues.id, queue.id));
    const old = new Date(Date.now() - 120_000);
    await db
      .update(t.subscriptionMessages)
      .set({ publishedAt: old })
      .where(eq(t.subscriptionMessages.subscriptionId, sub.id));
    await db
      .update(t.subscriptionMessages)
      .set({ deadLetteredAt: new Date() })
      .where(eq(t.subscriptionMessages.messageId, messages[2].id));
    expect(await expireMessages()).toBeGreaterThanOrEqual(2);
    expect((await messageRows(sub.id)).map((m) => m.messageId)).toEqual([messages[2].id]);
    const [minute] = await db
      .select()
      .from(t.subscriptionMinutes)
      .where(eq(t.subscriptionMinutes.subscriptionId, sub.id));
    expect(minute.expired).toBe(2);
  });

  it('the loop posts signed batches to the target and the messages leave', async () => {
    received.length = 0;
    answer = (_, res) => void res.writeHead(204).end();
    const { sub, messages } = await subscriptionWithBacklog(4, { batchSize: 2, maxConcurrency: 1 });
    for (let i = 0; i < 50 && (await messageRows(sub.id)).length > 0; i++) {
      await subscriptionDeliveryLoop.job.run!();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await messageRows(sub.id)).toEqual([]);
    const mine = received.filter((r) => JSON.parse(r.body).subscriptionId === sub.id);
    expect(mine).toHaveLength(2);
    const wh = new Webhook(SECRET);
    const ids = mine.flatMap((r) => {
      const payload = wh.verify(r.body, {
        'webhook-id': r.headers['webhook-id'] as string,
        'webhook-timestamp': r.headers['webhook-timestamp'] as string,
        'webhook-signature': r.headers['webhook-signature'] as string,
      }) as { deliveryId: string; messages: { id: string; body: unknown; attributes: unknown; attempt: number }[] };
      expect(payload.deliveryId).toBe(r.headers['webhook-id']);
      return payload.messages.map((m) => {
        expect(m).toMatchObject({ attributes: { kind: 'order' }, attempt: 1 });
        return m.id;
      });
    });
    expect(ids.sort()).toEqual(messages.map((m) => m.id).sort());
  });
});
