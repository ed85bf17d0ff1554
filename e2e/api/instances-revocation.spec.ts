import type { APIRequestContext } from '@playwright/test';
import { expect, sessionFor, test } from '../fixtures';
import { E2E } from '../support/env';
import { memberSeeder, type SeededBot, type SeededMember } from '../support/principals';
import { createScimToken, scimPatch } from '../support/api-keys';
import { spawnServer, type Spawned } from '../support/spawn-server';

const TRIALS = 100;

// "Immediately" across instances: after the revoking response, the very next request to the other instance fails.
test.describe('revocation across two instances on one PostgreSQL', () => {
  test.skip(!process.env.DATABASE_URL, 'needs PostgreSQL (DATABASE_URL): the embedded database is one process');
  test.describe.configure({ mode: 'serial', timeout: 240_000 });

  let servers: Spawned[] = [];
  const admins: APIRequestContext[] = [];
  let seeder: ReturnType<typeof memberSeeder>;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    const env = {
      DATABASE_URL: process.env.DATABASE_URL!,
      RATE_LIMIT_REQUESTS: '1000000',
      ANON_RATE_LIMIT: '1000000',
      AUTH_FAILURE_RATE_LIMIT: '1000000',
      RATE_LIMIT_NAMESPACE: `revocation-${Date.now()}-`,
    };
    servers = await Promise.all([spawnServer(E2E.port + 22, env), spawnServer(E2E.port + 23, env)]);
    for (const s of servers) admins.push(await sessionFor('ada', s.url));
    seeder = memberSeeder(process.env.DATABASE_URL!);
  });
  test.afterAll(async () => {
    await Promise.all(admins.map((c) => c.dispose()));
    await seeder?.close();
    await Promise.all(servers.map((s) => s.stop()));
  });

  /**
   * Trial i revokes through instance i % 2 and asks the other one, which has the credential cached. Each trial
   * seeds its own principal (`seed`), since revoking destroys it.
   */
  async function trials<P>(
    name: string,
    seed: (label: string) => Promise<P>,
    credential: (principal: P) => string,
    revoke: (revoker: { url: string; admin: APIRequestContext }, principal: P) => Promise<number>,
  ) {
    const accepted: number[] = [];
    for (let i = 0; i < TRIALS; i++) {
      const principal = await seed(`${name}-${i}`);
      const [revoker, asked] = i % 2 ? [0, 1] : [1, 0];
      const ask = () =>
        fetch(`${servers[asked].url}/v1/organizations`, {
          headers: { authorization: `Bearer ${credential(principal)}` },
        }).then((r) => r.status);
      expect(await ask()).toBe(200); // now cached on the instance asked next
      expect(await revoke({ url: servers[revoker].url, admin: admins[revoker] }, principal)).toBeLessThan(300);
      if ((await ask()) !== 401) accepted.push(i);
    }
    expect(accepted, `${name}: trials accepted after the revoking response`).toEqual([]);
  }
  const member = (organizationId: string) => (label: string) => seeder.member(organizationId, label);

  test('a revoked API key', async ({ demo }) => {
    await trials(
      'key',
      member(demo.acme),
      (m) => m.key,
      async ({ admin }, m) => (await admin.delete(`/v1/organizations/${demo.acme}/api-keys/${m.keyId}`)).status(),
    );
  });

  test("a removed member's API key", async ({ demo }) => {
    await trials(
      'member',
      member(demo.acme),
      (m) => m.key,
      async ({ admin }, m) => (await admin.delete(`/v1/organizations/${demo.acme}/members/${m.userId}`)).status(),
    );
  });

  test("a deleted bot's API key", async ({ demo }) => {
    await trials(
      'bot',
      (label) => seeder.bot(demo.acme, label),
      (b: SeededBot) => b.key,
      async ({ admin }, b) => (await admin.delete(`/v1/organizations/${demo.acme}/bots/${b.botId}`)).status(),
    );
  });

  test('a revoked OAuth access token', async ({ demo }) => {
    await trials(
      'oauth',
      member(demo.acme),
      (m) => m.oauth,
      async ({ url }, m) =>
        (
          await fetch(`${url}/oauth/revoke`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ token: m.oauth, client_id: 'svc-cli' }),
          })
        ).status,
    );
  });

  test('a user suspended through SCIM (their API key and their OAuth token)', async ({ demo }) => {
    const token = await createScimToken(admins[0], demo.acme);
    const suspend = async ({ admin }: { admin: APIRequestContext }, m: SeededMember) =>
      (await scimPatch(admin, token, m.userId, [{ op: 'replace', path: 'active', value: false }])).status();
    await trials('scim-key', member(demo.acme), (m) => m.key, suspend);
    await trials('scim-oauth', member(demo.acme), (m) => m.oauth, suspend);
  });

  test('signing out ends that session on both instances; "sign out of all sessions" ends the others', async () => {
    const [a, b] = servers;
    const cookieOf = async (ctx: APIRequestContext) =>
      (await ctx.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const status = (url: string, cookie: string) =>
      fetch(`${url}/v1/organizations`, { headers: { cookie } }).then((r) => r.status);

    const first = await sessionFor('bob', a.url);
    const second = await sessionFor('bob', b.url);
    const firstCookie = await cookieOf(first);
    const secondCookie = await cookieOf(second);
    expect([await status(a.url, firstCookie), await status(b.url, firstCookie)]).toEqual([200, 200]);

    const { csrfToken } = (await (await first.get('/api/auth/csrf')).json()) as { csrfToken: string };
    const signedOut = await first.post('/api/auth/signout', { form: { csrfToken, json: 'true' }, maxRedirects: 0 });
    expect([200, 302]).toContain(signedOut.status());
    expect([await status(b.url, firstCookie), await status(a.url, firstCookie)]).toEqual([401, 401]);
    // Only that session ended: bob's other one still works.
    expect(await status(a.url, secondCookie)).toBe(200);

    const third = await sessionFor('bob', a.url);
    const thirdCookie = await cookieOf(third);
    expect((await second.post('/v1/sessions/end-all')).status()).toBe(204);
    expect([await status(a.url, thirdCookie), await status(b.url, secondCookie)]).toEqual([401, 401]);
    await Promise.all([first.dispose(), second.dispose(), third.dispose()]);
  });
});
