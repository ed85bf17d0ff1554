import type { APIRequestContext } from '@playwright/test';
import pg from 'pg';
import { expect, sessionFor, test } from '../fixtures';
import { E2E } from '../support/env';
import { startQueueReceiver, until, type QueueReceiver } from '../support/queue-receiver';
import { spawnServer, type Spawned } from '../support/spawn-server';

// Two instances on one PostgreSQL (with the suite's own two servers as a third and fourth deliverer): the cap on
// deliveries in flight is measured at the receiver, and a kill -9 mid-drain loses no message.
test.describe('queue deliveries on two instances', () => {
  test.skip(!process.env.DATABASE_URL, 'needs PostgreSQL (DATABASE_URL): the embedded database is one process');
  test.describe.configure({ mode: 'serial' });
  test.setTimeout(180_000);

  let a: Spawned;
  let b: Spawned;
  let receiver: QueueReceiver;
  let ada: APIRequestContext;
  let base: string;
  const env = () => ({
    DATABASE_URL: process.env.DATABASE_URL!,
    WEBHOOK_ALLOW_LOOPBACK: '1',
    QUEUE_POLL_MS: '50',
    RATE_LIMIT_REQUESTS: '100000',
    RATE_LIMIT_NAMESPACE: `queues-${Date.now()}-`,
  });

  test.beforeAll(async ({ demo }) => {
    // Two spawned servers on a busy machine may take longer than a hook's default 30 s.
    test.setTimeout(120_000);
    [a, b, receiver] = await Promise.all([
      spawnServer(E2E.port + 82, env()),
      spawnServer(E2E.port + 83, env()),
      startQueueReceiver(E2E.port + 84),
    ]);
    ada = await sessionFor('ada', a.url);
    base = `/v1/organizations/${demo.acme}/projects/${demo.production}`;
    // Background jobs start a few seconds after the database opens: then every instance delivers.
    await new Promise((resolve) => setTimeout(resolve, 5_500));
  });
  test.afterAll(async () => {
    await ada?.dispose();
    await Promise.all([a?.stop(), b?.stop(), receiver?.close()]);
  });

  async function subscribed(settings: Record<string, unknown>) {
    const queue = await ada.post(`${base}/queues`, { data: { name: `inst-${Date.now().toString(36)}` } });
    expect(queue.status()).toBe(201);
    const queueId = ((await queue.json()) as { id: string }).id;
    const created = await ada.post(`${base}/subscriptions`, {
      data: { queueId, target: { kind: 'https', url: receiver.freshUrl(), timeoutSeconds: 1 }, ...settings },
    });
    expect(created.status()).toBe(201);
    const sub = (await created.json()) as { id: string; signingSecret: string };
    receiver.verifyWith(sub.signingSecret);
    return { queueId, subscriptionId: sub.id };
  }

  async function publish(queueId: string, count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let sent = 0; sent < count; sent += 100) {
      const n = Math.min(100, count - sent);
      const res = await ada.post(`${base}/queues/${queueId}/messages`, {
        data: { messages: Array.from({ length: n }, (_, i) => ({ body: { n: sent + i } })) },
      });
      expect(res.status()).toBe(202);
      ids.push(...((await res.json()) as { messageIds: string[] }).messageIds);
    }
    return ids;
  }

  for (const [trial, cap] of [
    [1, 1],
    [2, 3],
    [3, 5],
  ] as const)
    test(`trial ${trial}: maxConcurrency ${cap}: never more in flight at the receiver, every message once`, async () => {
      receiver.reset();
      receiver.respond(() => ({ status: 204, holdMs: 40 }));
      const { queueId } = await subscribed({ batchSize: 2, maxConcurrency: cap });
      const ids = await publish(queueId, 200);
      await until(() => new Set(receiver.messageIds()).size === ids.length, 60_000);
      expect(receiver.state.maxInFlight).toBeLessThanOrEqual(cap);
      expect(receiver.state.maxInFlight).toBe(cap);
      expect(receiver.messageIds()).toHaveLength(ids.length);
      expect(receiver.state.badSignatures).toBe(0);
    });

  test('a live change of maxConcurrency applies to the next delivery started', async () => {
    receiver.reset();
    receiver.respond(() => ({ status: 204, holdMs: 60 }));
    const { queueId, subscriptionId } = await subscribed({ batchSize: 1, maxConcurrency: 4 });
    const ids = await publish(queueId, 150);
    await until(() => receiver.state.batches.length >= 30, 30_000);
    expect((await ada.patch(`${base}/subscriptions/${subscriptionId}`, { data: { maxConcurrency: 1 } })).status()).toBe(
      200,
    );
    // In-flight ones finish (at most 4 × 60 ms); from then on one at a time.
    await new Promise((resolve) => setTimeout(resolve, 500));
    receiver.state.maxInFlight = 0;
    await until(() => new Set(receiver.messageIds()).size === ids.length, 60_000);
    expect(receiver.state.maxInFlight).toBe(1);
  });

  test('kill -9 of one instance while 5,000 messages drain: every message arrives, duplicates only from its in-flight deliveries', async () => {
    receiver.reset();
    receiver.respond(() => ({ status: 204, holdMs: 5 }));
    const batchSize = 10;
    const cap = 5;
    const { queueId } = await subscribed({ batchSize, maxConcurrency: cap });
    const ids = await publish(queueId, 5_000);
    await until(() => receiver.messageIds().length >= 1_000, 60_000);
    b.child.kill('SIGKILL');
    // The killed instance's leases run out after the timeout (1 s) and their margin; then others take them.
    await until(() => new Set(receiver.messageIds()).size === ids.length, 120_000);
    const seen = new Map<string, number>();
    for (const id of receiver.messageIds()) seen.set(id, (seen.get(id) ?? 0) + 1);
    const duplicates = [...seen.values()].filter((n) => n > 1).length;
    console.log(
      `kill -9: ${seen.size} of ${ids.length} arrived, ${duplicates} twice, at most ${receiver.state.maxInFlight} in flight`,
    );
    expect(new Set(seen.keys())).toEqual(new Set(ids));
    // At most what could be in flight at the kill: every delivery of the subscription, on any instance.
    expect(duplicates).toBeLessThanOrEqual(cap * batchSize);
    expect(receiver.state.maxInFlight).toBeLessThanOrEqual(cap);
  });

  test('PostgreSQL ends every session for 3 s mid-drain (as a restart does): every message still arrives', async () => {
    receiver.reset();
    receiver.respond(() => ({ status: 204, holdMs: 5 }));
    const { queueId } = await subscribed({ batchSize: 10, maxConcurrency: 5 });
    const ids = await publish(queueId, 2_000);
    await until(() => receiver.messageIds().length >= 400, 60_000);
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    try {
      for (const end = Date.now() + 3_000; Date.now() < end; await new Promise((r) => setTimeout(r, 100)))
        await admin.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
        );
    } finally {
      await admin.end();
    }
    // Attempts whose record was cut off wait out their lease (timeout 1 s + 30 s), then go again.
    await until(() => new Set(receiver.messageIds()).size === ids.length, 120_000);
    expect(new Set(receiver.messageIds())).toEqual(new Set(ids));
  });
});
