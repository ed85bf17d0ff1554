import { randomBytes } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { expect, sessionFor, test } from '../fixtures';
import { E2E } from '../support/env';
import { spawnServer, type Spawned } from '../support/spawn-server';
import { startReceiver, type Receiver } from '../support/webhook-receiver';
import { attemptsOf, createWebhook, hooksPath } from '../support/webhooks';

const METRICS_TOKEN = 'e2e-webhook-instances-metrics';

/** How many attempts an instance's worker made (accepted or failed), from its own /metrics. */
async function attemptsMadeBy(server: Spawned): Promise<number> {
  const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.status).toBe(200);
  const text = await res.text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
  return value('svc_webhook_deliveries_sent_total') + value('svc_webhook_deliveries_failed_total');
}

// Every instance runs a delivery worker; on one PostgreSQL (with the main and limited test servers' workers as a
// third and fourth) each attempt of each message must leave exactly once, and every message must arrive.
test.describe('webhook delivery on two instances', () => {
  test.skip(!process.env.DATABASE_URL, 'needs PostgreSQL (DATABASE_URL): the embedded database is one process');
  test.describe.configure({ mode: 'serial' });
  test.setTimeout(120_000);

  let a: Spawned;
  let b: Spawned;
  let receiver: Receiver;
  const opened: APIRequestContext[] = [];

  let env: Record<string, string>;
  test.beforeAll(async () => {
    env = {
      DATABASE_URL: process.env.DATABASE_URL!,
      WEBHOOK_ALLOW_LOOPBACK: '1',
      WEBHOOK_POLL_MS: '20',
      WEBHOOK_RETRY_SCHEDULE: '100ms,100ms',
      METRICS_TOKEN,
      RATE_LIMIT_REQUESTS: '100000',
      RATE_LIMIT_NAMESPACE: `hooks-${Date.now()}-`,
    };
    [a, b, receiver] = await Promise.all([
      spawnServer(E2E.port + 42, env),
      spawnServer(E2E.port + 43, env),
      startReceiver(E2E.port + 44),
    ]);
    // Background jobs start BACKGROUND_START_DELAY_MS (5 s) after the database opens, which is before /v1/health
    // answers: after that long both workers run, so each instance can take part from the first trial on.
    await new Promise((resolve) => setTimeout(resolve, 5_500));
  });
  test.afterAll(async () => {
    await Promise.all(opened.map((c) => c.dispose()));
    await Promise.all([a?.stop(), b?.stop(), receiver?.close()]);
  });

  for (const trial of [1, 2, 3])
    test(`trial ${trial}: 60 events, each failing once then accepted: exactly two sends per message`, async ({
      demo,
    }) => {
      receiver.received.length = 0;
      const before = await Promise.all([attemptsMadeBy(a), attemptsMadeBy(b)]);
      const onA = await sessionFor('gil', a.url);
      const onB = await sessionFor('gil', b.url);
      opened.push(onA, onB);
      const { webhook, secret } = await createWebhook(onA, demo.globex, {
        url: `${receiver.url}/t${trial}`,
        events: ['api_key.created'],
      });
      // The first request of each message fails (retryable), the second succeeds.
      receiver.respond((_, count) => ({ status: count === 1 ? 503 : 204 }));
      // Ten at a time, alternating instances: the events' creation is not what this measures.
      const created = [];
      for (let batch = 0; batch < 6; batch++)
        created.push(
          ...(await Promise.all(
            Array.from({ length: 10 }, (_, j) =>
              (j % 2 ? onB : onA).post(`/v1/organizations/${demo.globex}/api-keys`, {
                data: { name: `fanout-${trial}-${batch * 10 + j}` },
              }),
            ),
          )),
        );
      expect(created.map((r) => r.status())).toEqual(Array(60).fill(201));

      // Every message delivered, read from the whole log (120 attempts: more than one page).
      await expect
        .poll(async () => (await attemptsOf(onA, demo.globex, webhook.id)).filter((x) => x.status === 204).length, {
          timeout: 60_000,
        })
        .toBe(60);
      receiver.verify(secret);
      // Each attempt left once: per webhook-id, one request answered 503 and then one answered 204, no more.
      const perMessage = new Map<string, number>();
      for (const r of receiver.received) perMessage.set(r.id, (perMessage.get(r.id) ?? 0) + 1);
      expect(perMessage.size).toBe(60);
      expect([...perMessage.entries()].filter(([, n]) => n !== 2)).toEqual([]);
      const attempts = await attemptsOf(onA, demo.globex, webhook.id);
      expect(attempts).toHaveLength(120);
      const once = new Set(attempts.map((x) => `${x.messageId}#${x.attempt}`));
      expect(once.size).toBe(120);
      for (const id of perMessage.keys())
        expect(
          attempts
            .filter((x) => x.messageId === id)
            .map((x) => [x.attempt, x.status])
            .sort(),
        ).toEqual([
          [1, 503],
          [2, 204],
        ]);
      // Both spawned instances took part (the main servers' workers may have sent the rest).
      const after = await Promise.all([attemptsMadeBy(a), attemptsMadeBy(b)]);
      const byA = after[0] - before[0];
      const byB = after[1] - before[1];
      expect(byA).toBeGreaterThan(0);
      expect(byB).toBeGreaterThan(0);
      expect(byA + byB).toBeLessThanOrEqual(120);
      await onA.delete(`${hooksPath(demo.globex)}/${webhook.id}`);
    });

  test('an instance whose ENCRYPTION_KEY differs cannot sign: it releases what it claimed, at once, unsent', async ({
    demo,
  }) => {
    // A misconfigured third instance, polling as fast as the others: it claims deliveries it cannot sign.
    const wrongKey = randomBytes(32).toString('base64url');
    const c = await spawnServer(E2E.port + 45, {
      ...env,
      ENCRYPTION_KEY: wrongKey,
      WEBHOOK_POLL_MS: '5',
      BACKGROUND_START_DELAY_MS: '500',
    });
    // Its worker starts BACKGROUND_START_DELAY_MS after the database opened.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const onA = await sessionFor('gil', a.url);
    opened.push(onA);
    let webhookId: string | undefined;
    try {
      receiver.received.length = 0;
      const { webhook } = await createWebhook(onA, demo.globex, {
        url: `${receiver.url}/wrong-key`,
        events: ['api_key.created'],
      });
      webhookId = webhook.id;
      receiver.respond((_, count) => ({ status: count === 1 ? 503 : 204 }));
      const created = await Promise.all(
        Array.from({ length: 20 }, (_, j) =>
          onA.post(`/v1/organizations/${demo.globex}/api-keys`, { data: { name: `wrong-key-${j}` } }),
        ),
      );
      expect(created.map((r) => r.status())).toEqual(Array(20).fill(201));
      // Well inside the 60 s lease a stranded claim would wait out.
      await expect
        .poll(async () => (await attemptsOf(onA, demo.globex, webhook.id)).filter((x) => x.status === 204).length, {
          timeout: 15_000,
        })
        .toBe(20);
      expect(c.output()).toContain('cannot be prepared here; left to other instances');
      // No attempt number was burned by the instance that sent nothing.
      const attempts = await attemptsOf(onA, demo.globex, webhook.id);
      expect(attempts.map((x) => [x.attempt, x.status]).sort()).toEqual([
        ...Array(20).fill([1, 503]),
        ...Array(20).fill([2, 204]),
      ]);
      expect(receiver.received).toHaveLength(40);
    } finally {
      // Another endpoint left subscribed would receive the same webhook-ids and upset later counts.
      if (webhookId) await onA.delete(`${hooksPath(demo.globex)}/${webhookId}`);
      await c.stop();
    }
  });
});
