import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { acmeProduction, expect, sessionFor, test } from '../fixtures';
import { E2E } from '../support/env';
import { startQueueReceiver, until, type QueueReceiver } from '../support/queue-receiver';
import { spawnServer, type Spawned } from '../support/spawn-server';

// What one process holds open, and what one request carries, measured at a real receiver. On a server of its own
// (the embedded database: it is the only deliverer, so every request the receiver sees is this process's).
test.describe('bounded deliveries', () => {
  test.skip(!!process.env.DATABASE_URL, 'PGlite: a server of its own is the only deliverer');
  test.describe.configure({ mode: 'serial', timeout: 150_000 });

  let server: Spawned | undefined;
  let receiver: QueueReceiver;
  let dir: string | undefined;
  let ada: APIRequestContext;
  let base: string;
  test.beforeAll(async () => {
    // A spawned server on a fresh embedded database runs every migration first: slow on a busy machine.
    test.setTimeout(150_000);
    dir = mkdtempSync(path.join(os.tmpdir(), 'svc-queue-limits-'));
    const env = { DATA_DIR: dir, WEBHOOK_ALLOW_LOOPBACK: '1', QUEUE_POLL_MS: '100', QUEUE_MAX_IN_FLIGHT: '6' };
    [server, receiver] = await Promise.all([
      spawnServer(E2E.port + 88, { ...env, SEED_DEMO: '1' }),
      startQueueReceiver(E2E.port + 89),
    ]);
    ada = await sessionFor('ada', server.url);
    const { acme, production } = await acmeProduction(ada);
    base = `/v1/organizations/${acme}/projects/${production}`;
  });
  test.afterAll(async () => {
    await ada?.dispose();
    await Promise.all([server?.stop(), receiver?.close()]);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A queue with one paused subscription to the receiver: every request to any of them counts together. */
  async function subscribed(settings: Record<string, unknown>) {
    // Made three at once: a name of the millisecond alone would be taken by the first (409).
    const queue = await ada.post(`${base}/queues`, { data: { name: `limits-${randomUUID().slice(0, 8)}` } });
    expect(queue.status()).toBe(201);
    const queueId = ((await queue.json()) as { id: string }).id;
    const created = await ada.post(`${base}/subscriptions`, {
      data: { queueId, target: { kind: 'https', url: receiver.url, timeoutSeconds: 10 }, state: 'paused', ...settings },
    });
    expect(created.status()).toBe(201);
    const sub = (await created.json()) as { id: string; signingSecret: string };
    return { queueId, id: sub.id, secret: sub.signingSecret };
  }

  async function publish(queueId: string, bodies: unknown[]): Promise<string[]> {
    const res = await ada.post(`${base}/queues/${queueId}/messages`, {
      data: { messages: bodies.map((body) => ({ body })) },
    });
    expect(res.status()).toBe(202);
    return ((await res.json()) as { messageIds: string[] }).messageIds;
  }

  test('QUEUE_MAX_IN_FLIGHT 6 bounds three subscriptions of maxConcurrency 5 together', async () => {
    receiver.reset();
    receiver.respond(() => ({ status: 204, holdMs: 300 }));
    const subs = await Promise.all([1, 2, 3].map(() => subscribed({ batchSize: 1, maxConcurrency: 5 })));
    const ids: string[] = [];
    for (const s of subs)
      ids.push(
        ...(await publish(
          s.queueId,
          Array.from({ length: 20 }, (_, n) => ({ n })),
        )),
      );
    for (const s of subs) expect((await ada.post(`${base}/subscriptions/${s.id}/resume`)).status()).toBe(200);
    await until(() => new Set(receiver.messageIds()).size === ids.length, 60_000);
    console.log(`QUEUE_MAX_IN_FLIGHT 6, three subscriptions of 5: at most ${receiver.state.maxInFlight} open at once`);
    expect(receiver.state.maxInFlight).toBeLessThanOrEqual(6);
    // The budget is used, not merely respected: more than one subscription's cap at once.
    expect(receiver.state.maxInFlight).toBeGreaterThan(5);
  });

  test("a batch's body stays within 1 MiB: ten messages of 120 KiB go in more requests", async () => {
    receiver.reset();
    receiver.respond(() => ({ status: 204 }));
    const sub = await subscribed({ batchSize: 10, maxConcurrency: 1 });
    const big = 'x'.repeat(120 * 1024);
    const ids = [
      ...(await publish(
        sub.queueId,
        [1, 2, 3, 4, 5].map((n) => ({ n, big })),
      )),
      ...(await publish(
        sub.queueId,
        [6, 7, 8, 9, 10].map((n) => ({ n, big })),
      )),
    ];
    expect((await ada.post(`${base}/subscriptions/${sub.id}/resume`)).status()).toBe(200);
    await until(() => new Set(receiver.messageIds()).size === ids.length, 60_000);
    console.log(`ten 120 KiB messages, batchSize 10: requests of ${receiver.state.bodyBytes.join(', ')} bytes`);
    expect(Math.max(...receiver.state.bodyBytes)).toBeLessThanOrEqual(1024 * 1024);
    expect(receiver.state.batches.length).toBeGreaterThan(1);
    expect(receiver.messageIds().sort()).toEqual([...ids].sort());
  });
});
