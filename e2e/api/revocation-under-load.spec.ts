import type { APIRequestContext } from '@playwright/test';
import { bearer, expect, sessionFor, test } from '../fixtures';
import { E2E } from '../support/env';
import { spawnServer, type Spawned } from '../support/spawn-server';
import { blackHoleableProxy } from '../support/tcp-proxy';

// "Stops working immediately" across instances, while the other instance is busy with the same key: its
// requests share epoch reads (lib/db/coalesce.ts), and none may be answered from a read older than itself.
// B reaches the database through 40 ms each way, so a read is always in flight there when A revokes.
test.describe('revocation on one instance, under load on the other', () => {
  test.skip(!process.env.DATABASE_URL, 'needs PostgreSQL (DATABASE_URL): the embedded database is one process');
  test.describe.configure({ mode: 'serial' });

  let a: Spawned;
  let b: Spawned;
  let proxy: Awaited<ReturnType<typeof blackHoleableProxy>>;
  test.beforeAll(async () => {
    // A spawned server on a fresh database runs every migration first: slow on a busy machine.
    test.setTimeout(120_000);
    const database = new URL(process.env.DATABASE_URL!);
    const target = { host: database.hostname, port: Number(database.port || 5432) };
    proxy = await blackHoleableProxy(E2E.port + 33, target, { latencyMs: 40 });
    // Counters of their own: in the main server's namespace, every sign-in of the suite from this address counts
    // against these servers' sign-in limit.
    const env = {
      RATE_LIMIT_REQUESTS: '1000000',
      AUTH_FAILURE_RATE_LIMIT: '1000000',
      RATE_LIMIT_NAMESPACE: `under-load-${Date.now()}-`,
    };
    [a, b] = await Promise.all([
      spawnServer(E2E.port + 31, { ...env, DATABASE_URL: database.href }),
      spawnServer(E2E.port + 32, { ...env, DATABASE_URL: proxy.url(database.pathname.slice(1)) }),
    ]);
  });
  test.afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await proxy?.close();
  });

  test('every request sent after the revocation answered is refused by the other instance, in 12 trials', async ({
    demo,
  }) => {
    test.setTimeout(120_000);
    const bob = await sessionFor('bob', a.url);
    const opened: APIRequestContext[] = [bob];
    try {
      for (let trial = 0; trial < 12; trial++) {
        const created = await bob.post(`/v1/organizations/${demo.acme}/api-keys`, {
          data: { name: `revoked under load ${trial}` },
        });
        expect(created.status()).toBe(201);
        const { secret, apiKey } = await created.json();
        const onB = await bearer(secret, b.url);
        opened.push(onB);
        expect((await onB.get('/v1/organizations')).status()).toBe(200); // cached on B

        // Eight callers keep B busy with the key, so epoch reads are always in flight there.
        let revokedAt = Infinity;
        let stop = false;
        const sentAfter: number[] = [];
        const load = Array.from({ length: 8 }, async () => {
          while (!stop) {
            const sent = performance.now();
            const status = (await onB.get('/v1/organizations')).status();
            if (sent > revokedAt) sentAfter.push(status);
          }
        });
        await new Promise((resolve) => setTimeout(resolve, 30 + trial * 7));
        expect((await bob.delete(`/v1/organizations/${demo.acme}/api-keys/${apiKey.id}`)).status()).toBe(204);
        revokedAt = performance.now();
        const next = await onB.get('/v1/organizations');
        stop = true;
        await Promise.all(load);
        expect(next.status()).toBe(401);
        expect(sentAfter.every((status) => status === 401)).toBe(true);
      }
    } finally {
      await Promise.all(opened.map((c) => c.dispose()));
    }
  });
});
