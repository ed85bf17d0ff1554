import { bearer, expect, sessionFor, test } from '../fixtures';
import { E2E } from '../support/env';
import { testOneRateLimitWindow, twoInstances } from '../support/two-instances';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

// The rate-limit counters in Redis (RATE_LIMIT_REDIS_URL) instead of PostgreSQL: what two-instances.spec.ts asks
// of the PostgreSQL counters, and the revocation that no longer rides on their upsert.
test.describe('two instances counting in Redis', () => {
  const two = twoInstances([E2E.port + 24, E2E.port + 25], () => ({
    RATE_LIMIT_REDIS_URL: REDIS_URL,
    RATE_LIMIT_REQUESTS: '30',
    RATE_LIMIT_NAMESPACE: `two-redis-${Date.now()}-`,
  }));
  const ctx = two.ctx;

  testOneRateLimitWindow(two);

  test("a key revoked through one instance is refused on the other's next request, 6 times of 6", async ({ demo }) => {
    const bob = await ctx(sessionFor('bob', two.a.url));
    const bobOnB = await ctx(sessionFor('bob', two.b.url));
    // Six trials: bob's keys count in bob's window of 30, four requests a trial.
    let accepted = 0;
    for (let i = 0; i < 6; i++) {
      const [via, other] = i % 2 ? [bobOnB, two.b] : [bob, two.a];
      const otherUrl = other === two.a ? two.b.url : two.a.url;
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
