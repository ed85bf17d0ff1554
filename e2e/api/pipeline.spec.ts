import { request as playwrightRequest } from '@playwright/test';
import { generateApiKey } from '../../lib/auth/api-key-format';
import { MAX_BODY_BYTES } from '../../lib/http/body';
import { bearer, expect, expectError, mintedSessionCookie, readFixturesFor, sessionFor, test } from '../fixtures';
import { limitedURL } from '../support/env';

test.describe('authentication', () => {
  test('health needs no credential and answers ok', async ({ request }) => {
    const res = await request.get('/v1/health');
    expect(res.status()).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
    expect(res.headers()['x-request-id']).toMatch(/^req_/);
  });

  test('liveness needs no credential and answers ok with the skeleton headers', async ({ request }) => {
    const res = await request.get('/v1/health/live');
    expect(res.status()).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
    expect(res.headers()['x-request-id']).toMatch(/^req_/);
    expect(res.headers()['cache-control']).toBe('no-store');
  });

  test('no credential is 401 unauthenticated', async ({ request }) => {
    await expectError(await request.get('/v1/organizations'), 401, 'unauthenticated');
  });

  const refusedKeys: [string, string][] = [
    ['a malformed key', 'svc_tooShort'],
    [
      'a key with a bad checksum',
      (() => {
        const key = generateApiKey();
        return key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
      })(),
    ],
    ['a well-formed key that was never issued', generateApiKey()],
    ['a non-svc bearer that is no OAuth token', 'not-a-real-oauth-token-0123456789'],
  ];
  for (const [what, token] of refusedKeys) {
    test(`${what} is 401`, async () => {
      const ctx = await bearer(token);
      await expectError(await ctx.get('/v1/organizations'), 401, 'unauthenticated');
      await ctx.dispose();
    });
  }

  test('an expired key, a revoked key and a suspended owner’s key are 401', async ({ fixtures }) => {
    for (const key of [fixtures.keys.bobExpired, fixtures.keys.bobRevoked, fixtures.keys.suspendedUser]) {
      const ctx = await bearer(key);
      await expectError(await ctx.get('/v1/organizations'), 401, 'unauthenticated');
      await ctx.dispose();
    }
  });

  test('an Authorization header that is not a bearer is 401, even with a good cookie', async ({ as }) => {
    const bob = await as('bob');
    await expectError(
      await bob.get('/v1/organizations', { headers: { Authorization: 'Basic Ym9iOmJvYg==' } }),
      401,
      'unauthenticated',
    );
  });

  test('a suspended user’s session is 401, and so is a session whose version moved on', async ({
    request,
    fixtures,
    demo,
  }) => {
    const suspended = await mintedSessionCookie(fixtures.suspendedUserId, 1);
    await expectError(
      await request.get('/v1/organizations', { headers: { Cookie: suspended } }),
      401,
      'unauthenticated',
    );
    // cy: no spec ends her sessions (the sign-out tests bump bob's version on PostgreSQL).
    const stale = await mintedSessionCookie(demo.users.cy, 999);
    await expectError(await request.get('/v1/organizations', { headers: { Cookie: stale } }), 401, 'unauthenticated');
    // The same minting with the current version works: the refusals above are about the user, not the cookie.
    const current = await mintedSessionCookie(demo.users.cy, 1);
    expect((await request.get('/v1/organizations', { headers: { Cookie: current } })).status()).toBe(200);
  });

  test('a bot key acts in its own organization only', async ({ fixtures, demo }) => {
    const bot = await bearer(fixtures.keys.deployBot);
    const orgs = await (await bot.get('/v1/organizations')).json();
    expect(orgs.items).toEqual([{ id: demo.acme, name: 'Acme', requireTwoFactor: false, keyPolicy: null }]);
    await expectError(await bot.get(`/v1/organizations/${demo.globex}/projects`), 404, 'not_found');
    await bot.dispose();
  });
});

test.describe('visibility and access', () => {
  test('a member of Globex asking for Acme’s projects gets 404, as for an unknown or malformed org', async ({
    as,
    demo,
  }) => {
    const gil = await as('gil');
    await expectError(await gil.get(`/v1/organizations/${demo.acme}/projects`), 404, 'not_found');
    await expectError(
      await gil.get(`/v1/organizations/00000000-0000-4000-8000-000000000000/projects`),
      404,
      'not_found',
    );
    await expectError(await gil.get(`/v1/organizations/not-a-uuid/projects`), 404, 'not_found');
    const orgs = await (await gil.get('/v1/organizations')).json();
    expect(orgs.items.map((o: { name: string }) => o.name)).toEqual(['Globex']);
  });

  test('cy (BasicAccess) may list projects but not members: 403 access_denied', async ({ as, demo }) => {
    const cy = await as('cy');
    expect((await cy.get(`/v1/organizations/${demo.acme}/projects`)).status()).toBe(200);
    await expectError(await cy.get(`/v1/organizations/${demo.acme}/members`), 403, 'access_denied');
  });

  test('404 comes before 403: cy asking for members of an org she is not in is 404', async ({ as, demo }) => {
    const cy = await as('cy');
    await expectError(await cy.get(`/v1/organizations/${demo.globex}/members`), 404, 'not_found');
  });

  test('members and bots answer the shapes of PRODUCT.md', async ({ as, demo }) => {
    const ada = await as('ada');
    const members = await (await ada.get(`/v1/organizations/${demo.acme}/members`)).json();
    const bob = members.items.find((m: { email: string }) => m.email === 'bob@acme.test');
    expect(bob).toMatchObject({
      userId: demo.users.bob,
      name: expect.any(String),
      status: 'active',
      joinedAt: expect.any(String),
    });
    expect(bob.policies).toEqual(
      expect.arrayContaining([
        { policy: 'BasicAccess', projectId: null },
        { policy: 'QueuesEditor', projectId: demo.production },
        { policy: 'SilencesEditor', projectId: demo.production },
      ]),
    );
    const bots = await (await ada.get(`/v1/organizations/${demo.acme}/bots`)).json();
    expect(bots.items).toEqual([
      expect.objectContaining({ id: demo.deployBot, name: 'deploy-bot', createdAt: expect.any(String) }),
    ]);
    expect(bots.nextCursor).toBeNull();
  });
});

test.describe('pagination', () => {
  test('limit and cursor walk every project once; a bad cursor is 400 invalid_cursor', async ({ as, demo }) => {
    const ada = await as('ada');
    const first = await (await ada.get(`/v1/organizations/${demo.acme}/projects?limit=1`)).json();
    expect(first.items).toHaveLength(1);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await (
      await ada.get(`/v1/organizations/${demo.acme}/projects?limit=1&cursor=${first.nextCursor}`)
    ).json();
    expect(second.items).toHaveLength(1);
    expect(second.items[0].id).not.toBe(first.items[0].id);
    expect(second.nextCursor).toBeNull();
    expect([first.items[0].name, second.items[0].name]).toEqual(['Production', 'Staging']);

    await expectError(await ada.get(`/v1/organizations/${demo.acme}/projects?cursor=garbage`), 400, 'invalid_cursor');
    await expectError(await ada.get(`/v1/organizations/${demo.acme}/projects?limit=0`), 400, 'invalid_request', [
      'limit',
    ]);
    await expectError(await ada.get(`/v1/organizations/${demo.acme}/projects?limit=101`), 400, 'invalid_request', [
      'limit',
    ]);
  });
});

test.describe('rate limits', () => {
  test('past the per-principal limit: 429 too_many_requests with Retry-After', async () => {
    const ctx = await bearer(readFixturesFor('limited').keys.deployBot, limitedURL);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await ctx.get('/v1/organizations')).status());
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const res = await ctx.get('/v1/organizations');
    await expectError(res, 429, 'too_many_requests');
    expect(Number(res.headers()['retry-after'])).toBeGreaterThan(0);
    await ctx.dispose();
  });

  test('the order 413 → 401 → 429 → 403 origin → 404 → 400: past the limit, only a too-large body or no credential beats 429', async () => {
    const bob = await sessionFor('bob', limitedURL);
    const ada = await sessionFor('ada', limitedURL);
    const orgs = (await (await bob.get('/v1/organizations')).json()).items as { id: string; name: string }[];
    const acme = orgs.find((o) => o.name === 'Acme')!.id;
    const keys = `/v1/organizations/${acme}/api-keys`;
    // lastUsedAt is left out: the previous test's deploy-bot requests may be flushed to it meanwhile.
    const listed = async () =>
      ((await (await ada.get(keys)).json()).items as Record<string, unknown>[]).map((key) => ({
        ...key,
        lastUsedAt: undefined,
      }));
    const before = await listed();
    for (let i = 0; i < 4; i++) expect((await bob.get('/v1/organizations')).status()).toBe(200);

    // Each of these would be refused later in the order; past the limit each is 429, and nothing is created.
    const foreign = { Origin: 'https://evil.example' };
    for (const res of [
      await bob.post(keys, { data: { name: 'from elsewhere' }, headers: foreign }),
      await bob.get(`/v1/organizations/00000000-0000-4000-8000-000000000000/api-keys`),
      await bob.post(keys, { data: { name: '' } }),
      await bob.post(keys, { data: { name: 'would be created' } }),
    ])
      await expectError(res, 429, 'too_many_requests');
    // Before it: a body over the limit (413), and a request whose credential is missing (401).
    await expectError(
      await bob.post(keys, { data: 'x'.repeat(MAX_BODY_BYTES + 1), headers: { 'content-type': 'application/json' } }),
      413,
      'payload_too_large',
    );
    const anonymous = await playwrightRequest.newContext({ baseURL: limitedURL });
    await expectError(await anonymous.get('/v1/organizations'), 401, 'unauthenticated');
    expect(await listed()).toEqual(before);
    await Promise.all([bob.dispose(), ada.dispose(), anonymous.dispose()]);
  });
});

test.describe('documents and headers', () => {
  test('console pages carry a nonce CSP, frame-ancestors none, nosniff and a referrer policy', async ({ request }) => {
    const res = await request.get('/login');
    expect(res.status()).toBe(200);
    const headers = res.headers();
    expect(headers['content-security-policy']).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(headers['x-request-id']).toMatch(/^req_/);
  });
});
