import { bearer, expect, expectError, test } from '../fixtures';
import { createKey, listKeys } from '../support/api-keys';

type Usage = { days: { date: string; requests: number }[] };
const usagePath = (orgId: string, keyId: string) => `/v1/organizations/${orgId}/api-keys/${keyId}/usage`;

test('requests per key per UTC day: 30 days ending today, zeros included, counting the requests made', async ({
  as,
  demo,
}) => {
  const bob = await as('bob');
  const key = await createKey(bob, demo.acme, { name: `usage-${Date.now()}` });
  const asKey = await bearer(key.secret);
  for (let i = 0; i < 5; i++) expect((await asKey.get('/v1/organizations')).status()).toBe(200);
  // Counts are flushed off the request path (every 500 ms on the test server).
  await expect
    .poll(
      async () => ((await (await bob.get(usagePath(demo.acme, key.apiKey.id))).json()) as Usage).days.at(-1)?.requests,
    )
    .toBe(5);
  const { days } = (await (await bob.get(usagePath(demo.acme, key.apiKey.id))).json()) as Usage;
  expect(days).toHaveLength(30);
  expect(days.at(-1)!.date).toBe(new Date().toISOString().slice(0, 10));
  for (let i = 1; i < days.length; i++)
    expect(Date.parse(days[i].date) - Date.parse(days[i - 1].date), days[i].date).toBe(86_400_000);
  expect(days.slice(0, -1).every((d) => d.requests === 0)).toBe(true);
  await asKey.dispose();
});

test('usage is seen as the key is listed: the owner or apiKeys.list; unknown, revoked or other org: 404', async ({
  as,
  demo,
}) => {
  const bob = await as('bob');
  const key = await createKey(bob, demo.acme, { name: `usage-who-${Date.now()}` });
  expect((await (await as('ada')).get(usagePath(demo.acme, key.apiKey.id))).status()).toBe(200);
  await expectError(await (await as('cy')).get(usagePath(demo.acme, key.apiKey.id)), 403, 'access_denied');
  await expectError(await (await as('gil')).get(usagePath(demo.acme, key.apiKey.id)), 404, 'not_found');
  await expectError(await bob.get(usagePath(demo.acme, '00000000-0000-4000-8000-000000000000')), 404, 'not_found');
  expect((await bob.delete(`/v1/organizations/${demo.acme}/api-keys/${key.apiKey.id}`)).status()).toBe(204);
  await expectError(await bob.get(usagePath(demo.acme, key.apiKey.id)), 404, 'not_found');
});

test('expiring soon: flagged and filtered within 7 days; a bad filter value is 400', async ({ as, demo }) => {
  const bob = await as('bob');
  const unique = Date.now();
  const soon = await createKey(bob, demo.acme, { name: `soon-${unique}`, expiresInDays: 3 });
  const later = await createKey(bob, demo.acme, { name: `later-${unique}`, expiresInDays: 30 });
  const never = await createKey(bob, demo.acme, { name: `never-${unique}` });
  const all = await listKeys(bob, demo.acme);
  const flag = (id: string) => all.find((k) => k.id === id)?.expiringSoon;
  expect([flag(soon.apiKey.id), flag(later.apiKey.id), flag(never.apiKey.id)]).toEqual([true, false, false]);

  const filtered = await listKeys(bob, demo.acme, '&expiring=soon');
  expect(filtered.map((k) => k.id)).toContain(soon.apiKey.id);
  expect(filtered.every((k) => k.expiringSoon && !k.expired)).toBe(true);
  expect(filtered.map((k) => k.name)).not.toContain('e2e expired');
  await expectError(await bob.get(`/v1/organizations/${demo.acme}/api-keys?expiring=later`), 400, 'invalid_request', [
    'expiring',
  ]);
});
