import type { APIRequestContext } from '@playwright/test';
import { bearer, expect, expectError, mintedSessionCookie, sessionFor, test } from '../fixtures';
import { randomUUID } from 'node:crypto';
import { userIdOf } from '../support/api-keys';
import { alertmanagerBase, amtool } from '../support/amtool';
import { eventsAfter, newestSeq } from '../support/audit';
import { baseURL } from '../support/env';
import { anonymousContext, enrolTotp, signInWith } from '../support/second-factor';
import { request as playwrightRequest } from '@playwright/test';

// Hooli's policy: hal turns it on, mo (no second factor) is refused with every credential, then it goes off.
test.describe.configure({ mode: 'serial' });

let hal: APIRequestContext;
let org: string;
const opened: APIRequestContext[] = [];
const keep = <T extends APIRequestContext>(c: T) => (opened.push(c), c);

test.beforeAll(async () => {
  hal = keep(await sessionFor('hal@hooli.test'));
  const orgs = (await (await hal.get('/v1/organizations')).json()) as { items: { id: string; name: string }[] };
  org = orgs.items.find((o) => o.name === 'Hooli')!.id;
});
test.afterAll(async () => {
  // Off again whatever happened, so a rerun on the same database starts from the same place.
  await hal.patch(`/v1/organizations/${org}`, { data: { requireTwoFactor: false } });
  await Promise.all(opened.map((c) => c.dispose()));
});

test('turning the policy on needs the admin to have a second factor, is audited, and {} changes nothing', async () => {
  const seq = await newestSeq(hal, org);
  await expectError(
    await hal.patch(`/v1/organizations/${org}`, { data: { requireTwoFactor: true } }),
    403,
    'two_factor_required',
  );
  const unchanged = await hal.patch(`/v1/organizations/${org}`, { data: {} });
  expect(unchanged.status()).toBe(200);
  expect(await unchanged.json()).toEqual({ id: org, name: 'Hooli', requireTwoFactor: false, keyPolicy: null });
  expect(await eventsAfter(hal, org, seq)).toEqual([]);

  await enrolTotp(hal);
  const on = await hal.patch(`/v1/organizations/${org}`, { data: { requireTwoFactor: true } });
  expect(on.status(), await on.text()).toBe(200);
  expect(await on.json()).toEqual({ id: org, name: 'Hooli', requireTwoFactor: true, keyPolicy: null });
  const listed = (await (await hal.get('/v1/organizations')).json()) as {
    items: { id: string; requireTwoFactor: boolean }[];
  };
  expect(listed.items.find((o) => o.id === org)?.requireTwoFactor).toBe(true);
  const events = await eventsAfter(hal, org, seq);
  expect(events.map((e) => e.action)).toEqual(['two_factor.enabled', 'organization.updated']);
  expect(events[1]).toMatchObject({
    target: { type: 'organization', id: org, name: 'Hooli' },
    changes: [{ field: 'requireTwoFactor', from: false, to: true }],
  });
});

test('while on, a member without a second factor is refused with any credential, and can still reach /v1/me', async ({
  fixtures,
}) => {
  const { moKey, moOAuth, hooliProject } = fixtures.secondFactor;
  const mo = keep(await sessionFor('mo@hooli.test'));
  const credentials = [mo, keep(await bearer(moKey)), keep(await bearer(moOAuth))];
  for (const ctx of credentials) {
    await expectError(await ctx.get(`/v1/organizations/${org}/projects`), 403, 'two_factor_required');
    await expectError(await ctx.get(`/v1/organizations/${org}/api-keys`), 403, 'two_factor_required');
  }
  // The organization's Alertmanager API too, in its own error format, for amtool as for any client; an unknown
  // project is still 404 first.
  const alertmanager = alertmanagerBase(org, hooliProject);
  for (const ctx of credentials.slice(1)) {
    const refused = await ctx.get(`${alertmanager}/api/v2/silences`);
    expect(refused.status()).toBe(403);
    expect(await refused.json()).toBe(
      'This organization requires a second factor: add one on your Security page (/security) first.',
    );
    const unknown = await ctx.get(`${alertmanagerBase(org, randomUUID())}/api/v2/silences`);
    expect(unknown.status()).toBe(404);
  }
  const viaAmtool = await amtool(alertmanager, { basic: moKey }, ['silence', 'query', '-q']);
  expect(viaAmtool.code).not.toBe(0);
  expect(viaAmtool.stderr).toContain('403');
  await expectError(
    await mo.post(`/v1/organizations/${org}/api-keys`, { data: { name: 'refused' } }),
    403,
    'two_factor_required',
  );
  expect((await mo.get('/v1/me/security')).status()).toBe(200);
  expect((await mo.get('/v1/organizations')).status()).toBe(200);
  // Unknown stays 404 first: the policy is not a way to learn which organizations exist.
  await expectError(await mo.get('/v1/organizations/00000000-0000-4000-8000-000000000000/projects'), 404, 'not_found');
  // A single sign-on user (no password here) is exempt: their provider's policy applies.
  const ssoId = await userIdOf(hal, org, 'sso@hooli.test');
  const sso = keep(
    await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { cookie: await mintedSessionCookie(ssoId) } }),
  );
  expect((await sso.get(`/v1/organizations/${org}/projects`)).status()).toBe(200);
  // The members page shows who has a second factor.
  const members = (await (await hal.get(`/v1/organizations/${org}/members`)).json()) as {
    items: { email: string; twoFactorEnabled: boolean }[];
  };
  expect(Object.fromEntries(members.items.map((m) => [m.email, m.twoFactorEnabled]))).toMatchObject({
    'hal@hooli.test': true,
    'mo@hooli.test': false,
  });

  // Mo enrols: the refusal lifts at once for every credential.
  await enrolTotp(mo);
  for (const ctx of credentials) expect((await ctx.get(`/v1/organizations/${org}/projects`)).status()).toBe(200);
  expect((await amtool(alertmanager, { basic: moKey }, ['silence', 'query', '-q'])).code).toBe(0);
  expect((await mo.delete('/v1/me/totp')).status()).toBe(204);
  for (const ctx of credentials)
    await expectError(await ctx.get(`/v1/organizations/${org}/projects`), 403, 'two_factor_required');
});

test('turned off by the admin, the refusal ends; hal signs in with his code', async () => {
  const fresh = keep(await anonymousContext());
  expect(await signInWith(fresh, 'hal@hooli.test')).toEqual({ ok: false, error: 'second_factor_required' });
  const seq = await newestSeq(hal, org);
  const off = await hal.patch(`/v1/organizations/${org}`, { data: { requireTwoFactor: false } });
  expect(await off.json()).toEqual({ id: org, name: 'Hooli', requireTwoFactor: false, keyPolicy: null });
  const mo = keep(await sessionFor('mo@hooli.test'));
  expect((await mo.get(`/v1/organizations/${org}/projects`)).status()).toBe(200);
  const events = await eventsAfter(hal, org, seq);
  expect(events.map((e) => [e.action, e.changes])).toEqual([
    ['organization.updated', [{ field: 'requireTwoFactor', from: true, to: false }]],
  ]);
});

test('PATCH /v1/organizations/{orgId}: bad bodies are 400 at their paths, and nothing changes', async () => {
  const seq = await newestSeq(hal, org);
  for (const [body, paths] of [
    [{ requireTwoFactor: 'yes' }, ['requireTwoFactor']],
    [{ requireTwoFactor: null }, ['requireTwoFactor']],
    [{ name: '' }, ['name']],
    [{ nickname: 'Renamed' }, ['nickname']],
    [[], ['']],
  ] as const) {
    await expectError(await hal.patch(`/v1/organizations/${org}`, { data: body }), 400, 'invalid_request', [...paths]);
  }
  expect(await eventsAfter(hal, org, seq)).toEqual([]);
});
