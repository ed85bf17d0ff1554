import { bearer, expect, expectError, test } from '../fixtures';
import type { ApiKey } from '../../lib/api-keys/schema';
import { botIdOf, createKey, listKeys, statusWithKey } from '../support/api-keys';

type Rolled = { apiKey: ApiKey; secret: string; previous: ApiKey };

const rollPath = (orgId: string, keyId: string) => `/v1/organizations/${orgId}/api-keys/${keyId}/roll`;

test('grace 0: the new key keeps name, owner and lifetime and is shown once; the old one stops at once', async ({
  as,
  demo,
  request,
}) => {
  const bob = await as('bob');
  const old = await createKey(bob, demo.acme, { name: `roll-now-${Date.now()}`, expiresInDays: 30 });
  const res = await bob.post(rollPath(demo.acme, old.apiKey.id), { data: { gracePeriodSeconds: 0 } });
  expect(res.status(), await res.text()).toBe(201);
  expect(res.headers()['cache-control']).toBe('no-store');
  const rolled = (await res.json()) as Rolled;
  expect(rolled.secret).toMatch(/^svc_[0-9A-Za-z]{40}$/);
  expect(rolled.apiKey).toMatchObject({
    name: old.apiKey.name,
    owner: old.apiKey.owner,
    rolledAt: null,
    stopsAt: null,
  });
  const lifetime = (k: ApiKey) => new Date(k.expiresAt!).getTime() - new Date(k.createdAt).getTime();
  expect(lifetime(rolled.apiKey)).toBe(lifetime(old.apiKey));
  expect(rolled.previous.id).toBe(old.apiKey.id);
  expect(rolled.previous.stopsAt).toBe(rolled.previous.rolledAt);

  expect(await statusWithKey(request, old.secret)).toBe(401);
  expect(await statusWithKey(request, rolled.secret)).toBe(200);
  const listed = (await listKeys(bob, demo.acme)).map((k) => k.id);
  expect(listed).toContain(rolled.apiKey.id);
  expect(listed).not.toContain(old.apiKey.id);
  // Rolled and revoked: nothing more to roll.
  await expectError(
    await bob.post(rollPath(demo.acme, old.apiKey.id), { data: { gracePeriodSeconds: 0 } }),
    404,
    'not_found',
  );
});

// A grace that outlasts the whole run: housekeeping would otherwise revoke the old key while later files run,
// and a key vanishing from bob's list under them makes their before/after comparisons flaky.
const LONGER_THAN_THE_SUITE = 3600;

test('a key that never expires rolls into one that never expires', async ({ as, demo }) => {
  const bob = await as('bob');
  const old = await createKey(bob, demo.acme, { name: `roll-forever-${Date.now()}` });
  const rolled = (await (
    await bob.post(rollPath(demo.acme, old.apiKey.id), { data: { gracePeriodSeconds: LONGER_THAN_THE_SUITE } })
  ).json()) as Rolled;
  expect(rolled.apiKey.expiresAt).toBeNull();
});

test('with grace both keys work inside it, the old one is listed as rolling, and from stopsAt on only the new one works', async ({
  as,
  demo,
  request,
}) => {
  const bob = await as('bob');
  const old = await createKey(bob, demo.acme, { name: `roll-grace-${Date.now()}` });
  const res = await bob.post(rollPath(demo.acme, old.apiKey.id), { data: { gracePeriodSeconds: 2 } });
  expect(res.status(), await res.text()).toBe(201);
  const rolled = (await res.json()) as Rolled;
  const stopsAt = new Date(rolled.previous.stopsAt!).getTime();
  expect(stopsAt - new Date(rolled.previous.rolledAt!).getTime()).toBe(2_000);

  const listed = (await listKeys(bob, demo.acme)).find((k) => k.id === old.apiKey.id)!;
  expect(listed).toMatchObject({ rolledAt: rolled.previous.rolledAt, stopsAt: rolled.previous.stopsAt });

  // The boundary, without guessing timings: every request answered before stopsAt succeeded, every request
  // sent at or after stopsAt is refused, and the old key does end up refused.
  const seen: { sentAt: number; answeredAt: number; status: number }[] = [];
  await expect
    .poll(
      async () => {
        const sentAt = Date.now();
        const status = await statusWithKey(request, old.secret);
        seen.push({ sentAt, answeredAt: Date.now(), status });
        return status;
      },
      { timeout: 10_000, intervals: [100] },
    )
    .toBe(401);
  for (const s of seen) {
    if (s.answeredAt < stopsAt) expect(s.status, JSON.stringify(s)).toBe(200);
    if (s.sentAt >= stopsAt) expect(s.status, JSON.stringify(s)).toBe(401);
  }
  expect(seen.some((s) => s.status === 200)).toBe(true);
  expect(await statusWithKey(request, rolled.secret)).toBe(200);
  expect((await listKeys(bob, demo.acme)).map((k) => k.id)).not.toContain(old.apiKey.id);
});

test('two concurrent rolls of one key: exactly one wins', async ({ as, demo }) => {
  const bob = await as('bob');
  const old = await createKey(bob, demo.acme, { name: `roll-race-${Date.now()}` });
  const results = await Promise.all(
    [0, 1].map(() =>
      bob.post(rollPath(demo.acme, old.apiKey.id), { data: { gracePeriodSeconds: LONGER_THAN_THE_SUITE } }),
    ),
  );
  const statuses = results.map((r) => r.status()).sort();
  expect(statuses).toEqual([201, 409]);
  await expectError(
    results.find((r) => r.status() === 409)!,
    409,
    'api_key_already_rolled',
  );
  expect((await listKeys(bob, demo.acme)).filter((k) => k.name === old.apiKey.name)).toHaveLength(2);
});

test('who may roll: the owner, or bots.createApiKey for a bot’s key; never another user’s key, never an API key', async ({
  as,
  demo,
}) => {
  const bob = await as('bob');
  const ada = await as('ada');
  const bobsKey = await createKey(bob, demo.acme, { name: `roll-who-${Date.now()}` });
  const before = (await listKeys(bob, demo.acme)).map((k) => k.id);

  // Even an OrganizationAdmin cannot roll (so create) a key for another user.
  await expectError(
    await ada.post(rollPath(demo.acme, bobsKey.apiKey.id), { data: { gracePeriodSeconds: 0 } }),
    403,
    'access_denied',
  );
  // An API key cannot roll, not even itself, and is refused before its body is read.
  const asKey = await bearer(bobsKey.secret);
  const refused = await expectError(
    await asKey.post(rollPath(demo.acme, bobsKey.apiKey.id), { data: {} }),
    403,
    'access_denied',
  );
  expect(refused.message).toContain('API keys cannot roll');
  expect((await listKeys(bob, demo.acme)).map((k) => k.id)).toEqual(before);

  const botId = await botIdOf(ada, demo.acme, 'deploy-bot');
  const botKey = await createKey(ada, demo.acme, { name: `roll-bot-${Date.now()}`, botId });
  await expectError(
    await bob.post(rollPath(demo.acme, botKey.apiKey.id), { data: { gracePeriodSeconds: 0 } }),
    403,
    'access_denied',
  );
  const byAdmin = await ada.post(rollPath(demo.acme, botKey.apiKey.id), { data: { gracePeriodSeconds: 0 } });
  expect(byAdmin.status()).toBe(201);
  expect(((await byAdmin.json()) as Rolled).apiKey.owner).toEqual(botKey.apiKey.owner);
  await asKey.dispose();
});

test('revoked or unknown keys are 404, an expired key is 409, bad bodies are 400 at their field', async ({
  as,
  demo,
}) => {
  const bob = await as('bob');
  const gone = await createKey(bob, demo.acme, { name: `roll-revoked-${Date.now()}` });
  expect((await bob.delete(`/v1/organizations/${demo.acme}/api-keys/${gone.apiKey.id}`)).status()).toBe(204);
  await expectError(
    await bob.post(rollPath(demo.acme, gone.apiKey.id), { data: { gracePeriodSeconds: 0 } }),
    404,
    'not_found',
  );
  await expectError(
    await bob.post(rollPath(demo.acme, '00000000-0000-4000-8000-000000000000'), { data: { gracePeriodSeconds: 0 } }),
    404,
    'not_found',
  );
  await expectError(
    await bob.post(rollPath(demo.acme, 'not-a-uuid'), { data: { gracePeriodSeconds: 0 } }),
    404,
    'not_found',
  );

  const expired = (await listKeys(bob, demo.acme)).find((k) => k.name === 'e2e expired')!;
  await expectError(
    await bob.post(rollPath(demo.acme, expired.id), { data: { gracePeriodSeconds: 0 } }),
    409,
    'api_key_expired',
  );

  const live = await createKey(bob, demo.acme, { name: `roll-invalid-${Date.now()}` });
  for (const [data, path] of [
    [{ gracePeriodSeconds: -1 }, 'gracePeriodSeconds'],
    [{ gracePeriodSeconds: 604_801 }, 'gracePeriodSeconds'],
    [{ gracePeriodSeconds: 1.5 }, 'gracePeriodSeconds'],
    [{}, 'gracePeriodSeconds'],
    [{ gracePeriodSeconds: 0, name: 'x' }, 'name'],
  ] as const)
    await expectError(await bob.post(rollPath(demo.acme, live.apiKey.id), { data }), 400, 'invalid_request', [path]);
  expect((await listKeys(bob, demo.acme)).find((k) => k.id === live.apiKey.id)?.rolledAt).toBeNull();
});
