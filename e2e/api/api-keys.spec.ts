import { displayPrefix, isWellFormedApiKey } from '../../lib/auth/api-key-format';
import { bearer, expect, expectError, test } from '../fixtures';
import { FRESH_API_KEY } from '../support/fresh-api-key';
import { createKey, DAY_MS, keyIdentities, listKeys, oauthTokens, statusWithKey } from '../support/api-keys';

const keysOf = (orgId: string) => `/v1/organizations/${orgId}/api-keys`;

test.describe('create', () => {
  test('bob creates a key: 201, the secret once with no-store, and it acts as bob', async ({ as, demo, request }) => {
    const bob = await as('bob');
    const res = await bob.post(keysOf(demo.acme), { data: { name: 'ci deploys', expiresInDays: 30 } });
    expect(res.status()).toBe(201);
    expect(res.headers()['cache-control']).toBe('no-store');
    const { apiKey, secret } = await res.json();
    expect(isWellFormedApiKey(secret)).toBe(true);
    expect(apiKey).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'ci deploys',
      prefix: displayPrefix(secret),
      owner: { type: 'user', id: demo.users.bob, name: 'Bob Builder' },
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
      ...FRESH_API_KEY,
    });
    expect(apiKey.prefix).toMatch(/^svc_[0-9A-Za-z]{4}$/);

    const asKey = await bearer(secret);
    expect((await asKey.get(`/v1/organizations/${demo.acme}/projects`)).status()).toBe(200);
    const listed = await (await asKey.get(keysOf(demo.acme))).text();
    expect(listed).toContain(apiKey.id);
    expect(listed).not.toContain(secret);
    expect(await statusWithKey(request, secret)).toBe(200);
    await asKey.dispose();
  });

  test('expiry 30 / 90 / 365 days is creation plus that many days; null or absent is never', async ({ as, demo }) => {
    const bob = await as('bob');
    for (const days of [30, 90, 365]) {
      const { apiKey } = await createKey(bob, demo.acme, { name: `expires in ${days}`, expiresInDays: days });
      expect(new Date(apiKey.expiresAt!).getTime() - new Date(apiKey.createdAt).getTime()).toBe(days * DAY_MS);
    }
    for (const body of [{ name: 'never (null)', expiresInDays: null }, { name: 'never (absent)' }]) {
      const { apiKey } = await createKey(bob, demo.acme, body);
      expect(apiKey.expiresAt).toBeNull();
      expect(apiKey.expired).toBe(false);
    }
  });

  const invalid: [string, unknown, string[]][] = [
    ['an empty name', { name: '' }, ['name']],
    ['a 101-character name', { name: 'x'.repeat(101) }, ['name']],
    ['a name of 101 emoji', { name: '🔑'.repeat(101) }, ['name']],
    ['expiresInDays 0', { name: 'k', expiresInDays: 0 }, ['expiresInDays']],
    ['expiresInDays 366', { name: 'k', expiresInDays: 366 }, ['expiresInDays']],
    ['expiresInDays 1.5', { name: 'k', expiresInDays: 1.5 }, ['expiresInDays']],
    ['expiresInDays "30"', { name: 'k', expiresInDays: '30' }, ['expiresInDays']],
    ['an unknown field', { name: 'k', userId: '00000000-0000-4000-8000-000000000000' }, ['userId']],
    ['a malformed botId', { name: 'k', botId: 'deploy-bot' }, ['botId']],
    ['no name and two unknown fields', { owner: 'me', scopes: [] }, ['name', 'owner', 'scopes']],
    ['a body that is not an object', ['name'], ['']],
  ];
  for (const [what, body, paths] of invalid) {
    test(`${what}: 400 at ${paths.map((p) => `"${p}"`).join(', ')}, nothing created`, async ({ as, demo }) => {
      const bob = await as('bob');
      const before = await keyIdentities(bob, demo.acme);
      await expectError(await bob.post(keysOf(demo.acme), { data: body }), 400, 'invalid_request', paths);
      expect(await keyIdentities(bob, demo.acme)).toEqual(before);
    });
  }

  test('a 100-character name is accepted, counted in characters: 100 emoji too', async ({ as, demo }) => {
    const bob = await as('bob');
    expect((await createKey(bob, demo.acme, { name: 'n'.repeat(100) })).apiKey.name).toHaveLength(100);
    const emoji = '🔑'.repeat(100);
    expect((await createKey(bob, demo.acme, { name: emoji })).apiKey.name).toBe(emoji);
  });

  test('a key cannot create a key: 403 even for a bad body, and nothing is created', async ({ as, demo, fixtures }) => {
    const bob = await as('bob');
    const { secret } = await createKey(bob, demo.acme, { name: 'tries to mint' });
    const ids = async () => (await listKeys(await as('ada'), demo.acme)).map((k) => k.id);
    const before = await ids();
    for (const key of [secret, fixtures.keys.deployBot]) {
      const ctx = await bearer(key);
      const error = await expectError(
        await ctx.post(keysOf(demo.acme), { data: { name: 'minted by a key' } }),
        403,
        'access_denied',
      );
      expect(error.message).toBe('API keys cannot create API keys.');
      await expectError(await ctx.post(keysOf(demo.acme), { data: { name: '' } }), 403, 'access_denied');
      await ctx.dispose();
    }
    expect(await ids()).toEqual(before);
  });

  test('an OAuth bearer token (the CLI) may create a key for its user', async ({ demo }) => {
    const cli = await bearer(oauthTokens().bob);
    const res = await cli.post(keysOf(demo.acme), { data: { name: 'from the cli', expiresInDays: 90 } });
    expect(res.status(), await res.text()).toBe(201);
    expect((await res.json()).apiKey.owner).toEqual({ type: 'user', id: demo.users.bob, name: 'Bob Builder' });
    await cli.dispose();
  });

  test('a key for a bot needs bots.createApiKey; the key then acts as the bot', async ({ as, demo, request }) => {
    const bob = await as('bob');
    const before = await keyIdentities(await as('ada'), demo.acme);
    await expectError(
      await bob.post(keysOf(demo.acme), { data: { name: 'bot key', botId: demo.deployBot } }),
      403,
      'access_denied',
    );
    expect(await keyIdentities(await as('ada'), demo.acme)).toEqual(before);

    const ada = await as('ada');
    const { apiKey, secret } = await createKey(ada, demo.acme, {
      name: 'deploys',
      botId: demo.deployBot,
      expiresInDays: 30,
    });
    expect(apiKey.owner).toEqual({ type: 'bot', id: demo.deployBot, name: 'deploy-bot' });
    expect(await statusWithKey(request, secret)).toBe(200);
    const asBot = await bearer(secret);
    expect((await listKeys(asBot, demo.acme)).every((k) => k.owner.id === demo.deployBot)).toBe(true);
    await asBot.dispose();
  });

  test('a botId of another organization or of no bot is 404, and nothing is created', async ({ as, demo }) => {
    const ada = await as('ada');
    const gil = await as('gil');
    const ciBot = (
      (await (await gil.get(`/v1/organizations/${demo.globex}/bots`)).json()) as {
        items: { id: string; name: string }[];
      }
    ).items.find((b) => b.name === 'ci-bot')!.id;
    const before = await keyIdentities(ada, demo.acme);
    for (const botId of [ciBot, '00000000-0000-4000-8000-000000000000']) {
      await expectError(await ada.post(keysOf(demo.acme), { data: { name: 'nobody', botId } }), 404, 'not_found');
    }
    expect(await keyIdentities(ada, demo.acme)).toEqual(before);
  });

  test('a cookie write from another origin is refused before anything is created', async ({ as, demo }) => {
    const bob = await as('bob');
    const before = await keyIdentities(bob, demo.acme);
    const res = await bob.post(keysOf(demo.acme), {
      data: { name: 'csrf' },
      headers: { Origin: 'https://evil.example' },
    });
    await expectError(res, 403, 'forbidden_origin');
    expect(await keyIdentities(bob, demo.acme)).toEqual(before);
  });
});

test.describe('list and revoke', () => {
  test('cy cannot see or revoke bob’s keys; ada sees and revokes them', async ({ as, demo, request }) => {
    const bob = await as('bob');
    const cy = await as('cy');
    const ada = await as('ada');
    const { apiKey, secret } = await createKey(bob, demo.acme, { name: 'bob’s for the admin test' });
    await createKey(cy, demo.acme, { name: 'cy’s own' });

    const cySees = await listKeys(cy, demo.acme);
    expect(cySees.length).toBeGreaterThan(0);
    expect(cySees.every((k) => k.owner.id === demo.users.cy)).toBe(true);
    await expectError(await cy.delete(`${keysOf(demo.acme)}/${apiKey.id}`), 403, 'access_denied');
    expect(await statusWithKey(request, secret)).toBe(200);

    const adaSees = await listKeys(ada, demo.acme);
    const seen = adaSees.find((k) => k.id === apiKey.id);
    // The use just above shows once the buffered uses are flushed (LAST_USED_FLUSH_MS), which may be now.
    expect(seen).toEqual({ ...apiKey, lastUsedAt: seen?.lastUsedAt === null ? null : expect.any(String) });
    if (seen?.lastUsedAt) expect(Date.parse(seen.lastUsedAt)).toBeGreaterThanOrEqual(Date.parse(apiKey.createdAt));
    expect([...new Set(adaSees.map((k) => k.owner.id))]).toEqual(
      expect.arrayContaining([demo.users.bob, demo.users.cy, demo.deployBot]),
    );
    const adaOwn = await createKey(ada, demo.acme, { name: 'ada’s own' });
    const mine = await listKeys(ada, demo.acme, '&owner=me');
    expect(mine.map((k) => k.id)).toContain(adaOwn.apiKey.id);
    expect(mine.every((k) => k.owner.id === demo.users.ada)).toBe(true);

    expect((await ada.delete(`${keysOf(demo.acme)}/${apiKey.id}`)).status()).toBe(204);
    expect(await statusWithKey(request, secret)).toBe(401);
    expect((await listKeys(ada, demo.acme)).map((k) => k.id)).not.toContain(apiKey.id);
    await expectError(await ada.delete(`${keysOf(demo.acme)}/${apiKey.id}`), 404, 'not_found');
  });

  test('bob revokes his own key; the very next request with it is 401', async ({ as, demo, request }) => {
    const bob = await as('bob');
    const { apiKey, secret } = await createKey(bob, demo.acme, { name: 'short lived' });
    expect(await statusWithKey(request, secret)).toBe(200);
    const res = await bob.delete(`${keysOf(demo.acme)}/${apiKey.id}`);
    expect(res.status()).toBe(204);
    expect(await res.text()).toBe('');
    expect(await statusWithKey(request, secret)).toBe(401);
    expect((await listKeys(bob, demo.acme)).map((k) => k.id)).not.toContain(apiKey.id);
  });

  test('a key may revoke itself', async ({ as, demo }) => {
    const { apiKey, secret } = await createKey(await as('bob'), demo.acme, { name: 'self destruct' });
    const asKey = await bearer(secret);
    expect((await asKey.delete(`${keysOf(demo.acme)}/${apiKey.id}`)).status()).toBe(204);
    await expectError(await asKey.get('/v1/organizations'), 401, 'unauthenticated');
    await asKey.dispose();
  });

  test('unknown, malformed and other organization’s key ids are 404', async ({ as, demo }) => {
    const ada = await as('ada');
    const gil = await as('gil');
    const { apiKey } = await createKey(gil, demo.globex, { name: 'globex key' });
    await expectError(await ada.delete(`${keysOf(demo.acme)}/${apiKey.id}`), 404, 'not_found');
    await expectError(await ada.delete(`${keysOf(demo.acme)}/00000000-0000-4000-8000-000000000000`), 404, 'not_found');
    await expectError(await ada.delete(`${keysOf(demo.acme)}/not-a-uuid`), 404, 'not_found');
    await expectError(await ada.get(keysOf(demo.globex)), 404, 'not_found');
    expect((await listKeys(gil, demo.globex)).map((k) => k.id)).toContain(apiKey.id);
  });

  test('the expired key stays listed as expired; the revoked one is never listed', async ({ as, demo }) => {
    const keys = await listKeys(await as('bob'), demo.acme);
    expect(keys.find((k) => k.name === 'e2e expired')).toMatchObject({ expired: true });
    expect(keys.find((k) => k.name === 'e2e revoked')).toBeUndefined();
  });

  test('pages walk every key once, newest first; a bad cursor is 400 invalid_cursor', async ({ as, demo }) => {
    const bob = await as('bob');
    for (const n of [1, 2, 3]) await createKey(bob, demo.acme, { name: `page ${n}` });
    const all = await listKeys(bob, demo.acme);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await bob.get(`${keysOf(demo.acme)}?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      const page = (await res.json()) as { items: { id: string }[]; nextCursor: string | null };
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((k) => k.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.map((k) => k.id));
    expect(all.slice(0, 3).map((k) => k.name)).toEqual(['page 3', 'page 2', 'page 1']);
    const times = all.map((k) => new Date(k.createdAt).getTime());
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    await expectError(await bob.get(`${keysOf(demo.acme)}?cursor=garbage`), 400, 'invalid_cursor');
    await expectError(await bob.get(`${keysOf(demo.acme)}?limit=101`), 400, 'invalid_request', ['limit']);
    await expectError(await bob.get(`${keysOf(demo.acme)}?owner=everyone`), 400, 'invalid_request', ['owner']);
  });

  test('lastUsedAt is null until used, then recorded by the background flush', async ({ as, demo, request }) => {
    const bob = await as('bob');
    const { apiKey, secret } = await createKey(bob, demo.acme, { name: 'used once' });
    expect(apiKey.lastUsedAt).toBeNull();
    const before = Date.now();
    expect(await statusWithKey(request, secret)).toBe(200);
    const after = Date.now();
    let lastUsed: string | null = null;
    await expect
      .poll(async () => {
        lastUsed = (await listKeys(bob, demo.acme)).find((k) => k.id === apiKey.id)!.lastUsedAt;
        return lastUsed;
      })
      .not.toBeNull();
    const at = new Date(lastUsed!).getTime();
    expect(at).toBeGreaterThanOrEqual(before - 5);
    expect(at).toBeLessThanOrEqual(after + 5);
  });
});

test.describe('effective permissions', () => {
  test('the caller’s own permissions, at organization scope and per project', async ({ as, demo }) => {
    const bob = await (await (await as('bob')).get(`/v1/organizations/${demo.acme}/permissions`)).json();
    expect(bob.principal).toEqual({ type: 'user', id: demo.users.bob, name: 'Bob Builder' });
    expect(bob.organization).toContain('apiKeys.create');
    expect(bob.organization).not.toContain('apiKeys.list');
    const production = bob.projects.find((p: { projectId: string }) => p.projectId === demo.production);
    const staging = bob.projects.find((p: { projectId: string }) => p.projectId === demo.staging);
    expect(production.permissions).toContain('queues.subscriptions.update');
    expect(staging.permissions).not.toContain('queues.subscriptions.update');
    const ada = await (await (await as('ada')).get(`/v1/organizations/${demo.acme}/permissions`)).json();
    expect(ada.organization).toEqual(
      expect.arrayContaining(['apiKeys.list', 'apiKeys.delete', 'bots.createApiKey', 'members.delete']),
    );
    await expectError(await (await as('gil')).get(`/v1/organizations/${demo.acme}/permissions`), 404, 'not_found');
  });

  test('the OpenAPI document lists the API key, member, bot and SCIM token operations', async ({ request }) => {
    const doc = await (await request.get('/v1/openapi.json')).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/v1/organizations/{orgId}/api-keys',
        '/v1/organizations/{orgId}/api-keys/{keyId}',
        '/v1/organizations/{orgId}/members/{userId}',
        '/v1/organizations/{orgId}/members/me/leave',
        '/v1/organizations/{orgId}/bots/{botId}',
        '/v1/organizations/{orgId}/scim-tokens',
        '/v1/organizations/{orgId}/permissions',
      ]),
    );
    expect(Object.keys(doc.paths['/v1/organizations/{orgId}/api-keys'])).toEqual(
      expect.arrayContaining(['get', 'post']),
    );
  });
});
