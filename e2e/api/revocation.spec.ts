import { bearer, expect, expectError, sessionFor, test } from '../fixtures';
import { botIdOf, createKey, listKeys, statusWithKey, userIdOf } from '../support/api-keys';

// dan, eve (Acme) and ci-bot (Globex) exist for these tests (e2e/support/prepare-db.ts); the demo's own
// principals are removed only in e2e/ui/zz-revocation.spec.ts, the last file of the run.

test('removing a member revokes their keys in the same move; cy may not remove anyone', async ({
  as,
  demo,
  request,
}) => {
  const ada = await as('ada');
  const cy = await as('cy');
  const dan = await sessionFor('dan@acme.test');
  const danId = await userIdOf(ada, demo.acme, 'dan@acme.test');
  const first = await createKey(dan, demo.acme, { name: 'dan one', expiresInDays: 30 });
  const second = await createKey(dan, demo.acme, { name: 'dan two' });

  await expectError(await cy.delete(`/v1/organizations/${demo.acme}/members/${danId}`), 403, 'access_denied');
  expect(await statusWithKey(request, first.secret)).toBe(200);

  expect((await ada.delete(`/v1/organizations/${demo.acme}/members/${danId}`)).status()).toBe(204);
  expect(await statusWithKey(request, first.secret)).toBe(401);
  expect(await statusWithKey(request, second.secret)).toBe(401);
  const members = (await (await ada.get(`/v1/organizations/${demo.acme}/members?limit=100`)).json()).items as {
    userId: string;
  }[];
  expect(members.map((m) => m.userId)).not.toContain(danId);
  expect((await listKeys(ada, demo.acme)).filter((k) => k.owner.id === danId)).toEqual([]);
  // Dan's session still exists but no longer reaches Acme.
  await expectError(await dan.get(`/v1/organizations/${demo.acme}/projects`), 404, 'not_found');
  await expectError(await ada.delete(`/v1/organizations/${demo.acme}/members/${danId}`), 404, 'not_found');
  await dan.dispose();
});

test('a member who leaves loses their keys there; the last OrganizationAdmin cannot leave or be removed', async ({
  as,
  demo,
  request,
}) => {
  const eve = await sessionFor('eve@acme.test');
  const { secret } = await createKey(eve, demo.acme, { name: 'eve leaving' });
  const res = await eve.post(`/v1/organizations/${demo.acme}/members/me/leave`);
  expect(res.status(), await res.text()).toBe(204);
  expect(await statusWithKey(request, secret)).toBe(401);
  await expectError(await eve.get(`/v1/organizations/${demo.acme}/api-keys`), 404, 'not_found');
  await eve.dispose();

  const gil = await as('gil');
  const gilKey = await createKey(gil, demo.globex, { name: 'gil stays' });
  const globexMembers = async () => (await (await gil.get(`/v1/organizations/${demo.globex}/members`)).json()).items;
  const before = await globexMembers();
  expect(before.map((m: { userId: string }) => m.userId)).toContain(demo.users.gil);
  await expectError(
    await gil.post(`/v1/organizations/${demo.globex}/members/me/leave`),
    409,
    'last_organization_admin',
  );
  await expectError(
    await gil.delete(`/v1/organizations/${demo.globex}/members/${demo.users.gil}`),
    409,
    'last_organization_admin',
  );
  expect(await statusWithKey(request, gilKey.secret)).toBe(200);
  expect(await globexMembers()).toEqual(before);
});

test('a bot cannot leave: it is no member', async ({ fixtures, demo }) => {
  const bot = await bearer(fixtures.keys.deployBot);
  await expectError(await bot.post(`/v1/organizations/${demo.acme}/members/me/leave`), 403, 'access_denied');
  expect((await bot.get('/v1/organizations')).status()).toBe(200);
  await bot.dispose();
});

test('deleting a bot revokes its keys at once; deleted bots get no new keys', async ({ as, demo, request }) => {
  const gil = await as('gil');
  const ada = await as('ada');
  const botId = await botIdOf(gil, demo.globex, 'ci-bot');
  const { secret } = await createKey(gil, demo.globex, { name: 'ci', botId });
  expect(await statusWithKey(request, secret)).toBe(200);

  await expectError(await ada.delete(`/v1/organizations/${demo.acme}/bots/${botId}`), 404, 'not_found');
  await expectError(
    await (await as('bob')).delete(`/v1/organizations/${demo.acme}/bots/${demo.deployBot}`),
    403,
    'access_denied',
  );

  expect((await gil.delete(`/v1/organizations/${demo.globex}/bots/${botId}`)).status()).toBe(204);
  expect(await statusWithKey(request, secret)).toBe(401);
  const bots = (await (await gil.get(`/v1/organizations/${demo.globex}/bots`)).json()).items as { id: string }[];
  expect(bots.map((b) => b.id)).not.toContain(botId);
  await expectError(await gil.delete(`/v1/organizations/${demo.globex}/bots/${botId}`), 404, 'not_found');
  await expectError(
    await gil.post(`/v1/organizations/${demo.globex}/api-keys`, { data: { name: 'late', botId } }),
    404,
    'not_found',
  );
});
