import type { APIRequestContext, APIResponse } from '@playwright/test';
import fc from 'fast-check';
import { bearer, expect, expectError, sessionFor, test } from '../fixtures';
import { botIdOf, oauthTokens, userIdOf } from '../support/api-keys';
import { eventsAfter, newestSeq } from '../support/audit';
import { baseURL } from '../support/env';
import { anonymousContext, staleSession } from '../support/second-factor';

// Sudo on the main server (SUDO_WINDOW_SECONDS=86400 there): a session outside its window is one that never
// opened it, a cookie minted as a session signed in long ago would be. The real default is in second-factor-window.
test.describe.configure({ mode: 'serial' });

type Guarded = { name: string; send: (ctx: APIRequestContext) => Promise<APIResponse>; succeeds: number };

let uma: APIRequestContext; // signed in just now: inside the window
let umaId: string;
let org: string;
const opened: APIRequestContext[] = [];
const keep = <T extends APIRequestContext>(c: T) => (opened.push(c), c);

test.beforeAll(async () => {
  uma = keep(await sessionFor('uma@umbrella.test'));
  org = ((await (await uma.get('/v1/organizations')).json()) as { items: { id: string; name: string }[] }).items.find(
    (o) => o.name === 'Umbrella',
  )!.id;
  umaId = await userIdOf(uma, org, 'uma@umbrella.test');
});
test.afterAll(() => Promise.all(opened.map((c) => c.dispose())));

async function deviceUserCode(): Promise<string> {
  const anonymous = keep(await anonymousContext());
  const res = await anonymous.post('/oauth/device/code', { form: { client_id: 'svc-cli' } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { user_code: string }).user_code;
}

/** Every operation PRODUCT.md guards, with a request that would succeed inside the window. */
async function guardedOperations(): Promise<Guarded[]> {
  const created = await uma.post(`/v1/organizations/${org}/api-keys`, { data: { name: 'to roll' } });
  expect(created.status(), await created.text()).toBe(201);
  const keyId = ((await created.json()) as { apiKey: { id: string } }).apiKey.id;
  const rex = await userIdOf(uma, org, 'rex@umbrella.test');
  const bot = await botIdOf(uma, org, 'umbrella-bot');
  const userCode = await deviceUserCode();
  return [
    {
      name: 'create an API key',
      send: (c) => c.post(`/v1/organizations/${org}/api-keys`, { data: { name: 'sudo' } }),
      succeeds: 201,
    },
    {
      name: 'roll an API key',
      send: (c) => c.post(`/v1/organizations/${org}/api-keys/${keyId}/roll`, { data: { gracePeriodSeconds: 0 } }),
      succeeds: 201,
    },
    { name: 'create a SCIM token', send: (c) => c.post(`/v1/organizations/${org}/scim-tokens`), succeeds: 201 },
    { name: 'remove a member', send: (c) => c.delete(`/v1/organizations/${org}/members/${rex}`), succeeds: 204 },
    { name: 'delete a bot', send: (c) => c.delete(`/v1/organizations/${org}/bots/${bot}`), succeeds: 204 },
    {
      name: 'approve a device login',
      send: (c) => c.post(`/v1/device-authorizations/${userCode}/approve`),
      succeeds: 200,
    },
    {
      name: "change the organization's policy",
      send: (c) => c.patch(`/v1/organizations/${org}`, { data: { requireTwoFactor: false } }),
      succeeds: 200,
    },
    { name: 'start enrolling TOTP', send: (c) => c.post('/v1/me/totp'), succeeds: 201 },
    { name: 'ask for passkey creation options', send: (c) => c.post('/v1/me/passkeys/options'), succeeds: 200 },
  ];
}

test('every guarded operation refuses a session outside its window with 403 reauthentication_required, and nothing changes', async () => {
  const operations = await guardedOperations();
  const stale = keep(await staleSession(umaId));
  const seq = await newestSeq(uma, org);
  const before = await (await uma.get('/v1/me/security')).json();
  for (const op of operations) {
    const error = await expectError(await op.send(stale), 403, 'reauthentication_required');
    expect(error.message, op.name).toMatch(/^Confirm it is you/);
  }
  // Changes not guarded by the API's own reads: no audit event, no key, member, bot or factor moved.
  expect(await eventsAfter(uma, org, seq, { signIns: true })).toEqual([]);
  expect(await (await uma.get('/v1/me/security')).json()).toEqual(before);
  expect((await uma.get(`/v1/organizations/${org}/members?limit=100`)).status()).toBe(200);
  await userIdOf(uma, org, 'rex@umbrella.test');
  await botIdOf(uma, org, 'umbrella-bot');

  // The same session confirms with its password: the window opens, every operation now goes through.
  const granted = await stale.post('/v1/me/sudo', { data: { password: 'correct-horse-battery' } });
  expect(granted.status(), await granted.text()).toBe(200);
  const { sudoExpiresAt } = (await granted.json()) as { sudoExpiresAt: string };
  expect(Date.parse(sudoExpiresAt)).toBeGreaterThan(Date.now() + 86_000_000);
  for (const op of operations) {
    const res = await op.send(stale);
    expect(res.status(), `${op.name}: ${await res.text()}`).toBe(op.succeeds);
  }
  const granting = (await eventsAfter(uma, org, seq)).filter((e) => e.action === 'sudo.granted');
  expect(granting).toHaveLength(1);
  expect(granting[0]).toMatchObject({
    actor: { id: umaId, via: 'session' },
    target: { id: umaId },
    reason: 'password',
  });
  expect(JSON.stringify(granting[0])).not.toContain('correct-horse-battery');
});

test('the sudo check comes after access_denied and before the body is validated', async () => {
  const tia = await userIdOf(uma, org, 'tia@umbrella.test');
  const staleTia = keep(await staleSession(tia));
  const bot = await botIdOf(uma, org, 'umbrella-bot').catch(() => '00000000-0000-4000-8000-000000000000');
  // Tia may not delete bots or change the organization: 403 access_denied, not a request to re-authenticate.
  await expectError(await staleTia.delete(`/v1/organizations/${org}/bots/${bot}`), 403, 'access_denied');
  await expectError(
    await staleTia.patch(`/v1/organizations/${org}`, { data: { requireTwoFactor: true } }),
    403,
    'access_denied',
  );
  // A body that is not valid still gets 403 first: nothing about the request is looked at before the proof.
  const staleUma = keep(await staleSession(umaId));
  await expectError(
    await staleUma.post(`/v1/organizations/${org}/api-keys`, { data: { name: '' } }),
    403,
    'reauthentication_required',
  );
  await expectError(
    await staleUma.patch(`/v1/organizations/${org}`, { data: { nope: 1 } }),
    403,
    'reauthentication_required',
  );
  // Inside the window the same bodies are 400 at their paths.
  await expectError(
    await uma.post(`/v1/organizations/${org}/api-keys`, { data: { name: '' } }),
    400,
    'invalid_request',
    ['name'],
  );
  await expectError(await uma.patch(`/v1/organizations/${org}`, { data: { nope: 1 } }), 400, 'invalid_request', [
    'nope',
  ]);
});

test('bearer credentials are never asked; /v1/me takes a console session only', async ({ demo, fixtures }) => {
  const oauth = keep(await bearer(oauthTokens().bob));
  const res = await oauth.post(`/v1/organizations/${demo.acme}/api-keys`, { data: { name: 'oauth, no sudo' } });
  expect(res.status(), await res.text()).toBe(201);
  for (const token of [oauthTokens().bob, fixtures.keys.deployBot]) {
    const ctx = keep(await bearer(token));
    await expectError(await ctx.get('/v1/me/security'), 403, 'access_denied');
    await expectError(
      await ctx.post('/v1/me/sudo', { data: { password: 'correct-horse-battery' } }),
      403,
      'access_denied',
    );
  }
});

test('a wrong proof is 401, opens nothing and is audited as a failed sign-in', async () => {
  const stale = keep(await staleSession(umaId));
  const seq = await newestSeq(uma, org);
  for (const body of [{ password: 'wrong horse' }, { code: '000000' }, { code: 'aaaa-bbbb-cccc-dddd' }]) {
    await expectError(await stale.post('/v1/me/sudo', { data: body }), 401, 'unauthenticated');
  }
  await expectError(await stale.post('/v1/me/totp'), 403, 'reauthentication_required');
  expect(
    ((await (await stale.get('/v1/me/security')).json()) as { sudoExpiresAt: string | null }).sudoExpiresAt,
  ).toBeNull();
  const failures = (await eventsAfter(uma, org, seq, { signIns: true })).map((e) => [e.action, e.reason]);
  expect(failures).toEqual([
    ['sign_in.failed', 'wrong_password'],
    ['sign_in.failed', 'second_factor'],
    ['sign_in.failed', 'second_factor'],
  ]);
});

test('a sudo body is exactly one of password, code or passkey: anything else is 400 and opens nothing', async () => {
  const stale = keep(await staleSession(umaId));
  const proofs = { password: 'correct-horse-battery', code: '123456', passkey: { id: 'x', type: 'public-key' } };
  await fc.assert(
    fc.asyncProperty(
      fc.subarray(Object.keys(proofs) as (keyof typeof proofs)[]).filter((keys) => keys.length !== 1),
      fc.option(
        fc.string({ minLength: 1, maxLength: 8 }).filter((k) => !(k in proofs) && k !== '__proto__'),
        { nil: undefined },
      ),
      async (keys, extra) => {
        const body: Record<string, unknown> = Object.fromEntries(keys.map((k) => [k, proofs[k]]));
        if (extra !== undefined) body[extra] = 1;
        const res = await stale.post('/v1/me/sudo', { data: body });
        await expectError(res, 400, 'invalid_request');
      },
    ),
    { numRuns: 15 },
  );
  await expectError(
    await stale.post('/v1/me/sudo', { data: 'not json', headers: { 'content-type': 'application/json' } }),
    400,
    'invalid_request',
    [''],
  );
  await expectError(await stale.post('/v1/me/sudo', { data: { password: '' } }), 400, 'invalid_request', ['password']);
  expect(
    ((await (await stale.get('/v1/me/security')).json()) as { sudoExpiresAt: string | null }).sudoExpiresAt,
  ).toBeNull();
});

test('a sign-in opens the window: GET /v1/me/security says until when', async () => {
  const fresh = keep(await sessionFor('tom@umbrella.test', baseURL));
  const security = (await (await fresh.get('/v1/me/security')).json()) as { sudoExpiresAt: string };
  expect(Date.parse(security.sudoExpiresAt)).toBeGreaterThan(Date.now() + 86_000_000);
});
