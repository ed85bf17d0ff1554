import { bearer, expect, expectError, sessionFor, test } from '../fixtures';
import { createKey } from '../support/api-keys';
import { E2E } from '../support/env';
import { spawnServer, type Spawned } from '../support/spawn-server';
import { anonymous, freshEmail, newOrg, orgScope, PASSWORD, signedIn, tokenOf } from '../support/onboarding';

// A role changed through one instance holds on the very next request another instance serves, for a bot's key and
// a member's session alike: the change bumps the auth epoch in its transaction (lib/auth/epoch.ts).
test.describe('role changes across two instances on one PostgreSQL', () => {
  test.skip(!process.env.DATABASE_URL, 'needs PostgreSQL (DATABASE_URL): the embedded database is one process');
  test.describe.configure({ mode: 'serial', timeout: 90_000 });
  let a: Spawned;
  let b: Spawned;

  test.beforeAll(async () => {
    // A spawned server on a fresh database runs every migration first: slow on a busy machine.
    test.setTimeout(120_000);
    const env = { DATABASE_URL: process.env.DATABASE_URL!, RATE_LIMIT_NAMESPACE: `onboard-${Date.now()}-` };
    [a, b] = await Promise.all([spawnServer(E2E.port + 81, env), spawnServer(E2E.port + 82, env)]);
  });
  test.afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  test('a bot’s key and a member’s session on B feel a change made on A at once, both ways', async () => {
    const ada = await sessionFor('ada', a.url);
    const org = await newOrg(ada, 'Instances');
    const projects = `/v1/organizations/${org.id}/projects`;
    const bots = `/v1/organizations/${org.id}/bots`;
    const bot = await (await ada.post(bots, { data: { name: 'ci', policies: orgScope('BasicAccess') } })).json();
    const { secret } = await createKey(ada, org.id, { name: 'ci key', botId: bot.id });
    const keyOnB = await bearer(secret, b.url);

    const email = freshEmail('inst');
    const issued = await (
      await ada.post(`/v1/organizations/${org.id}/invitations`, { data: { email, policies: orgScope('BasicAccess') } })
    ).json();
    const anon = await anonymous(a.url);
    const joinedRes = await anon.post(`/v1/invitations/${tokenOf(issued.url)}/accept`, {
      data: { name: 'Inst', password: PASSWORD },
    });
    expect(joinedRes.status(), await joinedRes.text()).toBe(200);
    const { user } = await joinedRes.json();
    const memberOnB = await signedIn(email, b.url);
    const membersPath = `/v1/organizations/${org.id}/members`;

    // Cached on B: refused now.
    await expectError(await keyOnB.post(projects, { data: { name: 'by bot' } }), 403, 'access_denied');
    await expectError(await memberOnB.get(membersPath), 403, 'access_denied');

    const up = async (path: string, policies: string[]) =>
      expect((await ada.put(path, { data: { policies: orgScope(...policies) } })).status()).toBe(200);
    await up(`${bots}/${bot.id}/policies`, ['BasicAccess', 'OrganizationAdmin']);
    await up(`${membersPath}/${user.id}/policies`, ['BasicAccess', 'MemberAdmin']);
    expect((await keyOnB.post(projects, { data: { name: 'by bot' } })).status()).toBe(201);
    expect((await memberOnB.get(membersPath)).status()).toBe(200);

    await up(`${bots}/${bot.id}/policies`, ['BasicAccess']);
    await up(`${membersPath}/${user.id}/policies`, ['BasicAccess']);
    await expectError(await keyOnB.post(projects, { data: { name: 'by bot again' } }), 403, 'access_denied');
    await expectError(await memberOnB.get(membersPath), 403, 'access_denied');
    await Promise.all([ada.dispose(), keyOnB.dispose(), anon.dispose(), memberOnB.dispose()]);
  });
});
