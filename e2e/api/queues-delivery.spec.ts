import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../fixtures';
import { E2E } from '../support/env';
import { startQueueReceiver, until, type Answer, type Batch, type QueueReceiver } from '../support/queue-receiver';

type Subscription = {
  id: string;
  state: string;
  status: {
    health: string;
    lastError: { class: string; status: number; message: string } | null;
    lastSuccessAt: string | null;
  };
};

// Deliveries from the suite's server to a real receiver on 127.0.0.1 (the servers run with WEBHOOK_ALLOW_LOOPBACK=1):
// each rule of PRODUCT.md "Delivery" measured where it shows, at the receiver.
test.describe('queue deliveries', () => {
  test.describe.configure({ mode: 'serial' });
  test.setTimeout(60_000);

  let receiver: QueueReceiver;
  let ada: APIRequestContext;
  let base: string;
  test.beforeAll(async () => {
    receiver = await startQueueReceiver(E2E.port + 81);
  });
  // `as` disposes of the session after each test.
  test.afterAll(() => receiver.close());
  test.beforeEach(async ({ demo, as }) => {
    ada = await as('ada');
    base = `/v1/organizations/${demo.acme}/projects/${demo.production}`;
    receiver.reset();
    receiver.respond(() => ({ status: 204 }));
  });

  /** A new queue with one subscription to the receiver; its secret is what the receiver verifies with. */
  async function subscribed(settings: Record<string, unknown>) {
    const queue = await ada.post(`${base}/queues`, { data: { name: `q-${Date.now().toString(36)}` } });
    expect(queue.status()).toBe(201);
    const queueId = ((await queue.json()) as { id: string }).id;
    const created = await ada.post(`${base}/subscriptions`, {
      data: { queueId, target: { kind: 'https', url: receiver.freshUrl(), timeoutSeconds: 5 }, ...settings },
    });
    expect(created.status()).toBe(201);
    const sub = (await created.json()) as Subscription & { signingSecret: string };
    receiver.verifyWith(sub.signingSecret);
    return { queueId, sub };
  }

  async function publish(queueId: string, count: number): Promise<string[]> {
    const res = await ada.post(`${base}/queues/${queueId}/messages`, {
      data: { messages: Array.from({ length: count }, (_, i) => ({ body: { n: i }, attributes: { n: String(i) } })) },
    });
    expect(res.status()).toBe(202);
    return ((await res.json()) as { messageIds: string[] }).messageIds;
  }

  const read = async (id: string) => (await (await ada.get(`${base}/subscriptions/${id}`)).json()) as Subscription;

  test('every message arrives signed, in batches of at most batchSize, never more than maxConcurrency at once', async () => {
    receiver.respond(() => ({ status: 204, holdMs: 150 }));
    const { queueId, sub } = await subscribed({ batchSize: 3, maxConcurrency: 2 });
    const ids = await publish(queueId, 30);
    await until(() => new Set(receiver.messageIds()).size === 30);
    expect(new Set(receiver.messageIds())).toEqual(new Set(ids));
    expect(receiver.state.badSignatures).toBe(0);
    expect(Math.max(...receiver.state.batches.map((b) => b.messages.length))).toBeLessThanOrEqual(3);
    expect(receiver.state.maxInFlight).toBe(2);
    await until(async () => (await read(sub.id)).status.lastSuccessAt !== null);
    expect((await read(sub.id)).status.health).toBe('healthy');
  });

  test('a failing target: exactly maxAttempts attempts, then a dead letter; failing after 3; redrive delivers', async () => {
    receiver.respond(() => ({ status: 503 }));
    const { queueId, sub } = await subscribed({
      batchSize: 1,
      maxConcurrency: 1,
      retryPolicy: { maxAttempts: 4, minBackoffSeconds: 0, maxBackoffSeconds: 1 },
    });
    const [id] = await publish(queueId, 1);
    const deadLetters = async () =>
      (
        (await (await ada.get(`${base}/subscriptions/${sub.id}/dead-letters`)).json()) as {
          items: { messageId: string; attempts: number; lastError: { class: string; status: number } }[];
        }
      ).items;
    await until(async () => (await deadLetters()).length === 1);
    expect(receiver.messageIds().filter((m) => m === id)).toHaveLength(4);
    expect((await deadLetters())[0]).toMatchObject({
      messageId: id,
      attempts: 4,
      lastError: { class: 'http', status: 503 },
    });
    const failing = await read(sub.id);
    expect(failing.status).toMatchObject({ health: 'failing', lastError: { class: 'http', status: 503 } });

    receiver.respond(() => ({ status: 200 }));
    const redrive = await ada.post(`${base}/subscriptions/${sub.id}/dead-letters/redrive`, { data: {} });
    expect(redrive.status()).toBe(202);
    expect(await redrive.json()).toEqual({ redriven: 1 });
    await until(async () => (await read(sub.id)).status.health === 'healthy');
    expect(receiver.messageIds().filter((m) => m === id)).toHaveLength(5);
    expect(await deadLetters()).toEqual([]);
  });

  test('{"failed": [id]} retries only that message', async () => {
    let first = true;
    receiver.respond((batch) => {
      if (!first) return { status: 200 };
      first = false;
      return { status: 200, body: JSON.stringify({ failed: [batch.messages[0].id] }) };
    });
    const { queueId } = await subscribed({
      batchSize: 3,
      maxConcurrency: 1,
      retryPolicy: { maxAttempts: 5, minBackoffSeconds: 0, maxBackoffSeconds: 1 },
    });
    await publish(queueId, 3);
    await until(() => receiver.state.batches.length === 2);
    const [firstBatch, retry] = receiver.state.batches;
    expect(firstBatch.messages).toHaveLength(3);
    expect(retry.messages.map((m) => [m.id, m.attempt])).toEqual([[firstBatch.messages[0].id, 2]]);
  });

  test('a hung target is abandoned at timeoutSeconds, a timeout in lastError', async () => {
    receiver.respond(() => ({ status: 200, holdMs: 10_000 }));
    const { queueId, sub } = await subscribed({
      retryPolicy: { maxAttempts: 5, minBackoffSeconds: 60, maxBackoffSeconds: 600 },
    });
    await ada.patch(`${base}/subscriptions/${sub.id}`, {
      data: { target: { kind: 'https', timeoutSeconds: 1 } },
    });
    const started = Date.now();
    await publish(queueId, 1);
    await until(async () => (await read(sub.id)).status.lastError !== null, 8_000);
    expect(Date.now() - started).toBeLessThan(6_000);
    expect((await read(sub.id)).status.lastError).toMatchObject({ class: 'timeout', status: 0 });
  });

  test('paused holds the backlog; resume drains it; a 410 pauses', async () => {
    const { queueId, sub } = await subscribed({ state: 'paused' });
    await publish(queueId, 5);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(receiver.state.batches).toEqual([]);
    expect((await ada.post(`${base}/subscriptions/${sub.id}/resume`)).status()).toBe(200);
    await until(() => receiver.messageIds().length === 5);

    receiver.reset();
    receiver.respond(() => ({ status: 410 }));
    const gone = await publish(queueId, 1);
    await until(async () => (await read(sub.id)).state === 'paused');
    expect((await read(sub.id)).status.lastError).toMatchObject({ class: 'http', status: 410 });
    expect(receiver.state.batches).toHaveLength(1);
    receiver.respond(() => ({ status: 204 }));
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(receiver.state.batches).toHaveLength(1);
    await ada.post(`${base}/subscriptions/${sub.id}/resume`);
    await until(() => receiver.state.batches.length === 2);
    // The 410 counted no attempt: the message arrives again as its first.
    expect(receiver.state.batches[1].messages.map((m) => [m.id, m.attempt])).toEqual([[gone[0], 1]]);
  });

  // Receivers that lie, as real ones do: a 2xx acknowledges a batch only when its answer was read to its end, and
  // an answer that is a JSON object must be whole, within 64 KiB, and parse. Each case's first answer names the
  // batch's first message as failed in a way that cannot be read: that message must come back.
  /** Two messages in one batch; the first answer is `lie(batch)`, every later one 204. */
  async function deliveredAfter(lie: (batch: Batch) => Answer) {
    let first = true;
    receiver.respond((batch) => {
      if (!first) return { status: 204 };
      first = false;
      return lie(batch);
    });
    const { queueId, sub } = await subscribed({
      batchSize: 2,
      maxConcurrency: 1,
      retryPolicy: { maxAttempts: 5, minBackoffSeconds: 0, maxBackoffSeconds: 1 },
    });
    const ids = await publish(queueId, 2);
    await until(() => receiver.state.batches.length >= 1);
    expect(receiver.state.batches[0].messages.map((m) => m.id).sort()).toEqual([...ids].sort());
    return { ids, sub, firstBatch: receiver.state.batches[0].messages.map((m) => m.id) };
  }
  const times = (id: string) => receiver.messageIds().filter((m) => m === id).length;
  const failedFirst = (batch: Batch) => JSON.stringify({ failed: [batch.messages[0].id] });

  const unreadable: [string, (batch: Batch) => Answer, string][] = [
    ['trailing words', (b) => ({ status: 200, body: `${failedFirst(b)} and some words` }), 'invalid_response'],
    [
      'a JSON object over 64 KiB',
      (b) => ({ status: 200, body: JSON.stringify({ failed: [b.messages[0].id], pad: 'x'.repeat(70_000) }) }),
      'invalid_response',
    ],
    ['a reset in the middle of the body', (b) => ({ status: 200, body: failedFirst(b), breakAfter: 12 }), 'connection'],
    [
      '`failed` of the wrong type',
      (b) => ({ status: 200, body: `{"failed": "${b.messages[0].id}"}` }),
      'invalid_response',
    ],
    [
      'unknown ids',
      (b) => ({ status: 200, body: JSON.stringify({ failed: [b.messages[0].id, crypto.randomUUID()] }) }),
      'invalid_response',
    ],
  ];
  for (const [lie, answer, errorClass] of unreadable)
    test(`a lying receiver, ${lie}: the whole batch fails (${errorClass}) and every message comes back`, async () => {
      const { ids, sub } = await deliveredAfter(answer);
      await until(() => ids.every((id) => times(id) === 2));
      expect((await read(sub.id)).status.lastError).toMatchObject({ class: errorClass });
      expect(receiver.state.batches[1].messages.map((m) => m.attempt)).toEqual([2, 2]);
    });

  test('a lying receiver, a byte-order mark before the object: ignored, only the named message comes back', async () => {
    const { ids, firstBatch } = await deliveredAfter((b) => ({ status: 200, body: `\uFEFF${failedFirst(b)}` }));
    const [named, other] = firstBatch;
    await until(() => times(named) === 2);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(times(other)).toBe(1);
    expect(new Set(receiver.messageIds())).toEqual(new Set(ids));
  });

  test('a lying receiver, a huge plain-text success: acknowledges the batch', async () => {
    const { ids, sub } = await deliveredAfter(() => ({ status: 200, body: 'ok '.repeat(2_000_000) }));
    await until(async () => (await read(sub.id)).status.lastSuccessAt !== null);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(receiver.messageIds().sort()).toEqual([...ids].sort());
    expect((await read(sub.id)).status.lastError).toBeNull();
  });
});
