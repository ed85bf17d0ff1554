import type { APIRequestContext } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, expectError, sessionFor, test } from '../fixtures';
import { userIdOf } from '../support/api-keys';
import { eventsAfter, newestSeq } from '../support/audit';
import { dataDir, serverLog } from '../support/env';
import { anonymousContext, signInWith, staleSession, totpCode } from '../support/second-factor';

// Tia enrols TOTP and signs in with it; each step builds on the last.
test.describe.configure({ mode: 'serial' });

const TIA = 'tia@umbrella.test';
let tia: APIRequestContext;
let uma: APIRequestContext;
let org: string;
let secret = '';
let confirmedWith = '';
let recoveryCodes: string[] = [];
const opened: APIRequestContext[] = [];
const keep = <T extends APIRequestContext>(c: T) => (opened.push(c), c);

test.beforeAll(async () => {
  tia = keep(await sessionFor(TIA));
  uma = keep(await sessionFor('uma@umbrella.test'));
  const orgs = (await (await tia.get('/v1/organizations')).json()) as { items: { id: string; name: string }[] };
  org = orgs.items.find((o) => o.name === 'Umbrella')!.id;
});
test.afterAll(() => Promise.all(opened.map((c) => c.dispose())));

test('enrol: the secret is pending until a right code confirms it; a wrong code is 400 at code and changes nothing', async () => {
  const seq = await newestSeq(uma, org);
  const started = await tia.post('/v1/me/totp');
  expect(started.status(), await started.text()).toBe(201);
  const enrolment = (await started.json()) as { secret: string; otpauthUri: string };
  expect(enrolment.secret).toMatch(/^[A-Z2-7]{32}$/);
  const uri = new URL(enrolment.otpauthUri);
  expect(uri.protocol).toBe('otpauth:');
  expect(Object.fromEntries(uri.searchParams)).toMatchObject({
    secret: enrolment.secret,
    algorithm: 'SHA1',
    digits: '6',
    period: '30',
  });
  secret = enrolment.secret;
  // Pending: still off, and a sign-in asks for nothing more.
  expect((await (await tia.get('/v1/me/security')).json()).totp).toEqual({ enabled: false });
  const wrong = String((Number(totpCode(secret)) + 500_000) % 1_000_000).padStart(6, '0');
  for (const code of [wrong, '12345', 'abcdef', '']) {
    await expectError(await tia.post('/v1/me/totp/confirm', { data: { code } }), 400, 'invalid_request', ['code']);
  }
  expect((await (await tia.get('/v1/me/security')).json()).totp).toEqual({ enabled: false });

  confirmedWith = totpCode(secret);
  const confirmed = await tia.post('/v1/me/totp/confirm', { data: { code: confirmedWith } });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  recoveryCodes = ((await confirmed.json()) as { recoveryCodes: string[] }).recoveryCodes;
  expect(recoveryCodes).toHaveLength(10);
  expect(new Set(recoveryCodes).size).toBe(10);
  for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
  const security = await (await tia.get('/v1/me/security')).json();
  expect(security).toMatchObject({ totp: { enabled: true }, passkeys: [], recoveryCodesRemaining: 10 });
  // Enabled once: a second enrolment is refused until TOTP is off.
  await expectError(await tia.post('/v1/me/totp'), 409, 'second_factor_state_conflict');
  await expectError(
    await tia.post('/v1/me/totp/confirm', { data: { code: totpCode(secret) } }),
    409,
    'second_factor_state_conflict',
  );

  const events = (await eventsAfter(uma, org, seq)).map((e) => [e.action, e.reason]);
  expect(events).toEqual([['two_factor.enabled', 'totp']]);
  const members = (await (await uma.get(`/v1/organizations/${org}/members?limit=100`)).json()) as {
    items: { email: string; twoFactorEnabled: boolean }[];
  };
  expect(members.items.find((m) => m.email === TIA)?.twoFactorEnabled).toBe(true);
  expect(members.items.find((m) => m.email === 'rex@umbrella.test')?.twoFactorEnabled ?? false).toBe(false);
});

test('sign-in: the password alone issues no session; a code does, once; a wrong code is audited', async () => {
  const seq = await newestSeq(uma, org);
  const first = keep(await anonymousContext());
  expect(await signInWith(first, TIA)).toEqual({ ok: false, error: 'second_factor_required' });
  expect((await first.get('/v1/me/security')).status()).toBe(401);
  // The code the confirmation used is spent: its step again is a replay (a step later it is still in the ±1 window).
  expect(await signInWith(first, TIA, { code: confirmedWith })).toEqual({ ok: false, error: 'second_factor_wrong' });
  expect((await first.get('/v1/me/security')).status()).toBe(401);
  // The next step's code is accepted (±1 step) once, and then it too is spent.
  const next = totpCode(secret, 1);
  expect(await signInWith(first, TIA, { code: next })).toEqual({ ok: true, error: null });
  expect((await first.get('/v1/me/security')).status()).toBe(200);
  const second = keep(await anonymousContext());
  expect(await signInWith(second, TIA, { code: next })).toEqual({ ok: false, error: 'second_factor_wrong' });
  // A wrong password never reveals that a second step exists.
  expect(await signInWith(second, TIA, { password: 'wrong horse', code: next })).toEqual({
    ok: false,
    error: 'CredentialsSignin',
  });
  const events = (await eventsAfter(uma, org, seq, { signIns: true })).map((e) => [e.action, e.reason]);
  expect(events).toEqual([
    ['sign_in.failed', 'second_factor'],
    ['sign_in.succeeded', 'password'],
    ['sign_in.failed', 'second_factor'],
    ['sign_in.failed', 'wrong_password'],
  ]);
});

test('a recovery code signs in once, in any case and with or without dashes, and is audited', async () => {
  const seq = await newestSeq(uma, org);
  const code = recoveryCodes[0];
  const ctx = keep(await anonymousContext());
  expect(await signInWith(ctx, TIA, { code: code.toUpperCase().replaceAll('-', '') })).toEqual({
    ok: true,
    error: null,
  });
  const again = keep(await anonymousContext());
  expect(await signInWith(again, TIA, { code })).toEqual({ ok: false, error: 'second_factor_wrong' });
  expect((await (await ctx.get('/v1/me/security')).json()).recoveryCodesRemaining).toBe(9);
  const events = (await eventsAfter(uma, org, seq, { signIns: true })).map((e) => e.action);
  expect(events).toEqual(['recovery_code.used', 'sign_in.succeeded', 'sign_in.failed']);
});

test('two re-authentications racing with one recovery code: exactly one opens the window', async () => {
  const tiaId = await userIdOf(uma, org, TIA);
  for (const code of recoveryCodes.slice(1, 4)) {
    const sessions = await Promise.all([staleSession(tiaId), staleSession(tiaId)]);
    sessions.forEach(keep);
    const statuses = await Promise.all(
      sessions.map(async (s) => (await s.post('/v1/me/sudo', { data: { code } })).status()),
    );
    expect(statuses.sort()).toEqual([200, 401]);
  }
  expect((await (await tia.get('/v1/me/security')).json()).recoveryCodesRemaining).toBe(6);
});

test('regenerated recovery codes replace the old ones; TOTP off ends the second step', async () => {
  const seq = await newestSeq(uma, org);
  const regenerated = await tia.post('/v1/me/recovery-codes');
  expect(regenerated.status()).toBe(200);
  const fresh = ((await regenerated.json()) as { recoveryCodes: string[] }).recoveryCodes;
  expect(fresh).toHaveLength(10);
  expect(fresh.filter((c) => recoveryCodes.includes(c))).toEqual([]);
  const old = keep(await anonymousContext());
  expect(await signInWith(old, TIA, { code: recoveryCodes[5] })).toEqual({ ok: false, error: 'second_factor_wrong' });
  const withNew = keep(await anonymousContext());
  expect(await signInWith(withNew, TIA, { code: fresh[0] })).toEqual({ ok: true, error: null });

  expect((await tia.delete('/v1/me/totp')).status()).toBe(204);
  await expectError(await tia.delete('/v1/me/totp'), 404, 'not_found');
  await expectError(await tia.post('/v1/me/recovery-codes'), 409, 'second_factor_state_conflict');
  expect(await tia.get('/v1/me/security').then((r) => r.json())).toMatchObject({
    totp: { enabled: false },
    recoveryCodesRemaining: 0,
  });
  expect(await signInWith(keep(await anonymousContext()), TIA)).toEqual({ ok: true, error: null });
  const events = (await eventsAfter(uma, org, seq)).map((e) => [e.action, e.reason]);
  expect(events).toEqual([
    ['recovery_codes.regenerated', null],
    ['recovery_code.used', null],
    ['two_factor.disabled', 'totp'],
  ]);
});

test('nothing secret in the data directory, the server log or the audit log', async () => {
  const needles = [secret, ...recoveryCodes, ...recoveryCodes.map((c) => c.replaceAll('-', ''))];
  const list = path.join(os.tmpdir(), `svc-e2e-needles-${process.pid}.txt`);
  writeFileSync(list, needles.join('\n'));
  // grep exits 1 when no file holds any of them, 0 (and names the files) when one does.
  const places = process.env.DATABASE_URL ? [serverLog] : [serverLog, dataDir];
  const found = spawnSync('grep', ['-rlaF', '-f', list, ...places], { encoding: 'utf8' });
  expect(found.stdout).toBe('');
  expect(found.status).toBe(1);
  const log = JSON.stringify(await (await uma.get(`/v1/organizations/${org}/audit-events?limit=100`)).json());
  for (const needle of needles) expect(log.includes(needle)).toBe(false);
});
