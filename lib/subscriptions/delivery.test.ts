import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sealSecret } from '../crypto/secret-box';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import type { SendResult } from '../delivery/send';
import {
  insertTestQueue,
  insertTestSubscription,
  newTestProject,
  onBothDatabases,
} from '../../server/testing/test-database';
import { batchOutcome, recordDeliveries, recordDelivery, subscriptionDelivery } from './delivery';
import { claimBatches, recordBatches, type ClaimedBatch } from './delivery-service';
import { expireMessages } from './expiry-service';
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

const ok = (answerText = ''): SendResult => ({
  status: 200,
  error: null,
  errorClass: null,
  retryAfter: null,
  durationMs: 3,
  answer: answerText,
});
const failedWith = (status: number | null): SendResult => ({ ...ok(), status, errorClass: status ? null : 'timeout' });

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

  it('a 410 pauses the subscription and gives the messages back without counting an attempt', async () => {
    const { db, sub } = await subscriptionWithBacklog(2);
    const [batch] = (await claimBatches(100)).filter((b) => b.subscriptionId === sub.id);
    expect(await record(batch, failedWith(410))).toMatchObject({ paused: true, failed: 0 });
    const [row] = await db.select().from(t.subscriptions).where(eq(t.subscriptions.id, sub.id));
    expect(row).toMatchObject({ state: 'paused', lastError: { class: 'http', status: 410 } });
    expect((await messageRows(sub.id)).map((m) => [m.attempts, m.deliveryId])).toEqual([
      [0, null],
      [0, null],
    ]);
    expect((await claimBatches(100)).filter((b) => b.subscriptionId === sub.id)).toEqual([]);
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
    const minutes = await first.db
      .select()
      .from(t.subscriptionMinutes)
      .where(eq(t.subscriptionMinutes.subscriptionId, first.sub.id));
    expect(minutes.map((m) => [m.delivered, m.failed, m.deadLettered])).toEqual([[1, 5, 0]]);
    expect((await messageRows(second.sub.id)).map((m) => m.state)).toEqual(['dead']);
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
      await subscriptionDelivery.job.run!();
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
