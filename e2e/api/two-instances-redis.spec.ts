import type { APIRequestContext } from '@playwright/test';
import { bearer, expect, sessionFor, test } from '../fixtures';
import { E2E } from '../support/env';
import { spawnServer, type Spawned } from '../support/spawn-server';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

// The rate-limit counters in Redis (RATE_LIMIT_REDIS_URL) instead of PostgreSQL: what two-instances.spec.ts asks
// of the PostgreSQL counters, and the revocation that no longer rides on their upsert.
test.describe('two instances counting in Redis', () => {
  test.skip(!process.env.DATABASE_URL, 'needs PostgreSQL (DATABASE_URL): the embedded database is one process');
  test.describe.configure({ mode: 'serial' });

  let a: Spawned;
  let b: Spawned;
  const opened: APIRequestContext[] = [];
  const ctx = async (make: Promise<APIRequestContext>) => {
    const c = await make;
    opened.push(c);
    return c;
  };

  test.beforeAll(async () => {
    // A spawned server on a fresh database runs every migration first: slow on a busy machine.
    test.setTimeout(120_000);
    const env = {
      DATABASE_URL: process.env.DATABASE_URL!,
      RATE_LIMIT_REDIS_URL: REDIS_URL,
      RATE_LIMIT_REQUESTS: '30',
      RATE_LIMIT_NAMESPACE: `two-redis-${Date.now()}-`,
    };
    [a, b] = await Promise.all([spawnServer(E2E.port + 24, env), spawnServer(E2E.port + 25, env)]);
  });
  test.afterAll(async () => {
    await Promise.all(opened.map((c) => c.dispose()));
    await Promise.all([a?.stop(), b?.stop()]);
  });

  test('a rate limit counts requests on both instances together, exactly, however many arrive at once', async ({
    fixtures,
  }) => {
    const onA = await ctx(bearer(fixtures.keys.deployBot, a.url));
    const onB = await ctx(bearer(fixtures.keys.deployBot, b.url));
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await (i % 2 ? onB : onA).get('/v1/organizations')).status());
    expect(statuses).toEqual(Array(10).fill(200));
    const burst = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? onB : onA).get('/v1/organizations')));
    const counts = { 200: 0, 429: 0 };
    for (const response of burst) counts[response.status() as 200 | 429]++;
    expect(counts).toEqual({ 200: 20, 429: 10 });
    for (const refused of burst.filter((r) => r.status() === 429)) {
      expect(Number(refused.headers()['retry-after'])).toBeGreaterThan(0);
      expect((await refused.json()).error.code).toBe('too_many_requests');
    }
    expect((await onA.get('/v1/organizations')).status()).toBe(429);
    expect((await onB.get('/v1/organizations')).status()).toBe(429);
  });

  test("a key revoked through one instance is refused on the other's next request, 6 times of 6", async ({ demo }) => {
    const bob = await ctx(sessionFor('bob', a.url));
    const bobOnB = await ctx(sessionFor('bob', b.url));
    // Six trials: bob's keys count in bob's window of 30, four requests a trial.
    let accepted = 0;
    for (let i = 0; i < 6; i++) {
      const [via, other] = i % 2 ? [bobOnB, b] : [bob, a];
      const otherUrl = other === a ? b.url : a.url;
      const created = await via.post(`/v1/organizations/${demo.acme}/api-keys`, {
        data: { name: `redis revoke ${i}` },
      });
      expect(created.status()).toBe(201);
      const { secret, apiKey } = await created.json();
      const user = await ctx(bearer(secret, otherUrl));
      expect((await user.get('/v1/organizations')).status()).toBe(200); // cached there
      expect((await via.delete(`/v1/organizations/${demo.acme}/api-keys/${apiKey.id}`)).status()).toBe(204);
      if ((await user.get('/v1/organizations')).status() !== 401) accepted++;
    }
    expect(accepted).toBe(0);
  });
});
