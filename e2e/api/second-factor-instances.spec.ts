import { execFileSync } from 'node:child_process';
import type { APIRequestContext } from '@playwright/test';
import { request as playwrightRequest } from '@playwright/test';
import { expect, expectError, mintedSessionCookie, sessionFor, test } from '../fixtures';
import { userIdOf } from '../support/api-keys';
import { eventsAfter, newestSeq } from '../support/audit';
import { E2E } from '../support/env';
import { spawnServer, type Spawned } from '../support/spawn-server';
import { anonymousContext, enrolTotp, signInWith } from '../support/second-factor';

// Two instances on one PostgreSQL, with the default window (900 s): sudo lives in the database, not in an instance.
test.describe('second factor and sudo across two instances', () => {
  test.skip(!process.env.DATABASE_URL, 'needs PostgreSQL (DATABASE_URL): the embedded database is one process');
  test.describe.configure({ mode: 'serial' });

  let a: Spawned;
  let b: Spawned;
  let org: string;
  let umaId: string;
  const opened: APIRequestContext[] = [];
  const keep = <T extends APIRequestContext>(c: T) => (opened.push(c), c);

  test.beforeAll(async () => {
    // Two servers start here; on a busy machine that alone takes longer than a hook's default 30 s.
    test.setTimeout(180_000);
    // Every re-authentication takes a sign-in point per address and email: 60 of them in this spec.
    const env = {
      DATABASE_URL: process.env.DATABASE_URL!,
      RATE_LIMIT_NAMESPACE: `sudo-${Date.now()}-`,
      SIGNIN_RATE_LIMIT: '1000',
    };
    [a, b] = await Promise.all([spawnServer(E2E.port + 40, env), spawnServer(E2E.port + 41, env)]);
    const uma = keep(await sessionFor('uma@umbrella.test', a.url));
    const orgs = (await (await uma.get('/v1/organizations')).json()) as { items: { id: string; name: string }[] };
    org = orgs.items.find((o) => o.name === 'Umbrella')!.id;
    umaId = await userIdOf(uma, org, 'uma@umbrella.test');
  });
  test.afterAll(async () => {
    await Promise.all(opened.map((c) => c.dispose()));
    await Promise.all([a?.stop(), b?.stop()]);
  });

  /** One session (one cookie) seen through both instances. */
  async function sessionOnBoth(): Promise<[APIRequestContext, APIRequestContext]> {
    const cookie = await mintedSessionCookie(umaId);
    const on = (url: string) =>
      playwrightRequest.newContext({ baseURL: url, extraHTTPHeaders: { Origin: url, cookie } });
    return [keep(await on(a.url)), keep(await on(b.url))];
  }

  test('a sudo granted through one instance holds on the other at once, 30 trials each way', async () => {
    // 120 requests through two more servers: half a minute on a machine running the other suites beside this one.
    test.setTimeout(120_000);
    for (let trial = 0; trial < 30; trial++) {
      const [onA, onB] = await sessionOnBoth();
      const [grantOn, useOn] = trial % 2 ? [onA, onB] : [onB, onA];
      const create = () =>
        useOn.post(`/v1/organizations/${org}/api-keys`, { data: { name: `two-instance sudo ${trial}` } });
      await expectError(await create(), 403, 'reauthentication_required');
      const granted = await grantOn.post('/v1/me/sudo', { data: { password: E2E.password } });
      expect(granted.status(), await granted.text()).toBe(200);
      const res = await create();
      expect(res.status(), `trial ${trial}: ${await res.text()}`).toBe(201);
    }
  });

  test('the default window is 900 seconds from the sign-in, as either instance reads it', async () => {
    const before = Date.now();
    const fresh = keep(await sessionFor('uma@umbrella.test', a.url));
    const cookies = await fresh.storageState();
    const onB = keep(await playwrightRequest.newContext({ baseURL: b.url, storageState: cookies }));
    const { sudoExpiresAt } = (await (await onB.get('/v1/me/security')).json()) as { sudoExpiresAt: string };
    expect(Date.parse(sudoExpiresAt)).toBeGreaterThanOrEqual(before + 900_000 - 1_000);
    expect(Date.parse(sudoExpiresAt)).toBeLessThanOrEqual(Date.now() + 900_000 + 1_000);
  });

  test('npm run user:reset-2fa removes the factors and ends the sessions on every instance', async () => {
    const tom = keep(await sessionFor('tom@umbrella.test', a.url));
    await enrolTotp(tom);
    const onB = keep(await playwrightRequest.newContext({ baseURL: b.url, storageState: await tom.storageState() }));
    expect((await onB.get('/v1/me/security')).status()).toBe(200);
    expect(await signInWith(keep(await anonymousContext(a.url)), 'tom@umbrella.test', {}, a.url)).toEqual({
      ok: false,
      error: 'second_factor_required',
    });
    const admin = keep(await sessionFor('uma@umbrella.test', a.url));
    const seq = await newestSeq(admin, org);
    const run = (email: string) =>
      execFileSync(process.execPath, ['--import', 'tsx', 'scripts/reset-2fa.ts', email], {
        env: { ...process.env, ENCRYPTION_KEY: E2E.encryptionKey },
        encoding: 'utf8',
        stdio: 'pipe',
      });
    run('tom@umbrella.test');
    await expectError(await onB.get('/v1/me/security'), 401, 'unauthenticated');
    await expectError(await tom.get('/v1/me/security'), 401, 'unauthenticated');
    const again = keep(await anonymousContext(b.url));
    expect(await signInWith(again, 'tom@umbrella.test', {}, b.url)).toEqual({ ok: true, error: null });
    expect(await (await again.get('/v1/me/security')).json()).toMatchObject({
      totp: { enabled: false },
      passkeys: [],
      recoveryCodesRemaining: 0,
    });
    const events = (await eventsAfter(admin, org, seq)).map((e) => [e.action, e.actor.type]);
    expect(events).toEqual([['two_factor.reset', 'system']]);
    expect(() => run('nobody@umbrella.test')).toThrow(/No user with the email/);
  });
});
