import type { APIRequestContext } from '@playwright/test';
import { bearer, expect, test } from '../fixtures';
import { spawnServer, type Spawned } from './spawn-server';

export type TwoInstances = {
  a: Spawned;
  b: Spawned;
  /** A request context of the test, disposed with the instances. */
  ctx: (make: Promise<APIRequestContext>) => Promise<APIRequestContext>;
};

/**
 * Two app processes on the run's PostgreSQL, started before the describe block's tests (serial: they share the
 * instances) and stopped after. `env` is read then, so a namespace may carry the time.
 */
export function twoInstances(ports: [number, number], env: () => Record<string, string>): TwoInstances {
  test.skip(!process.env.DATABASE_URL, 'needs PostgreSQL (DATABASE_URL): the embedded database is one process');
  test.describe.configure({ mode: 'serial' });
  const opened: APIRequestContext[] = [];
  const two: TwoInstances = {
    a: undefined as unknown as Spawned,
    b: undefined as unknown as Spawned,
    ctx: async (make) => {
      const c = await make;
      opened.push(c);
      return c;
    },
  };
  test.beforeAll(async () => {
    // Two servers starting at once on a busy machine take longer than a test's default 30 s.
    test.setTimeout(120_000);
    const settings = { DATABASE_URL: process.env.DATABASE_URL!, ...env() };
    [two.a, two.b] = await Promise.all([spawnServer(ports[0], settings), spawnServer(ports[1], settings)]);
  });
  test.afterAll(async () => {
    await Promise.all(opened.map((c) => c.dispose()));
    await Promise.all([two.a?.stop(), two.b?.stop()]);
  });
  return two;
}

/**
 * The test every shared counter store passes: with `RATE_LIMIT_REQUESTS=30`, one key's requests on both instances
 * count together, exactly. 10 one at a time, then 30 at once, 15 on each (an instance counting alone would allow all
 * of them): 20 answered and 10 refused with 429. deploy-bot's key is used by no other test of the block, so its
 * window is this test's alone.
 */
export function testOneRateLimitWindow(two: TwoInstances) {
  test('a rate limit counts requests on both instances together, exactly, however many arrive at once', async ({
    fixtures,
  }) => {
    const onA = await two.ctx(bearer(fixtures.keys.deployBot, two.a.url));
    const onB = await two.ctx(bearer(fixtures.keys.deployBot, two.b.url));
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
}
