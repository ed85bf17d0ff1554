import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { sha256Hex } from '../../lib/auth/api-key-format';
import { bearer, expect, sessionFor, test } from '../fixtures';
import { botIdOf, createKey, oauthTokens, scimPatch, statusWithKey, userIdOf } from '../support/api-keys';
import { signInAs } from '../support/console';
import { dataDir, serverLog } from '../support/env';

// Each test destroys only principals of its own, seeded by prepare-db because no API creates users or bots
// (ray in Acme; una and retiring-bot in Globex), with keys it makes through the API: files and tests may
// run in any order, and the demo's cy, deploy-bot and bob stay as they are for everyone else.
test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

/** Secrets the tests of this file made, for the plaintext search when they ran before it in this worker. */
const secrets: string[] = [];

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

test('ada removes ray from Acme in the console; ray’s keys are 401 at once', async ({ page, demo, request }) => {
  const ray = await sessionFor('ray@acme.test');
  const { secret } = await createKey(ray, demo.acme, { name: 'ray before removal' });
  secrets.push(secret);
  expect(await statusWithKey(request, secret)).toBe(200);

  await signInAs(page, 'ada');
  await page.goto(`/orgs/${demo.acme}/members`);
  await page.getByRole('button', { name: 'Remove Ray Transient' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Remove Ray Transient from Acme?' });
  await expect(confirm).toContainText('Every API key they own in this organization is revoked immediately.');
  await page.screenshot({ path: 'test-results/screens/remove-member.png' });
  await confirm.getByRole('button', { name: 'Remove member' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole('row', { name: /Ray Transient/ })).toHaveCount(0);
  // Announced, and focus goes to the page heading: the opener's row is gone.
  await expect(page.getByText('Removed Ray Transient; their API keys here are revoked.')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Members' })).toBeFocused();
  expect(await statusWithKey(request, secret)).toBe(401);
  expect((await ray.get(`/v1/organizations/${demo.acme}/projects`)).status()).toBe(404);
  await ray.dispose();
});

test('gil deletes retiring-bot in the console; its keys are 401 at once', async ({ page, demo, request, as }) => {
  const gil = await as('gil');
  const botId = await botIdOf(gil, demo.globex, 'retiring-bot');
  const keys = [
    (await createKey(gil, demo.globex, { name: 'retiring-bot one', botId })).secret,
    (await createKey(gil, demo.globex, { name: 'retiring-bot two', botId })).secret,
  ];
  secrets.push(...keys);
  for (const key of keys) expect(await statusWithKey(request, key)).toBe(200);

  await signInAs(page, 'gil');
  await page.goto(`/orgs/${demo.globex}/bots`);
  await page.getByRole('button', { name: 'Delete retiring-bot' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete retiring-bot?' });
  await expect(confirm).toContainText('Every API key it owns is revoked immediately.');
  await confirm.getByRole('button', { name: 'Delete bot' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole('row', { name: /retiring-bot/ })).toHaveCount(0);
  await expect(page.getByText('Deleted retiring-bot; its API keys are revoked.')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Bots' })).toBeFocused();
  for (const key of keys) expect(await statusWithKey(request, key)).toBe(401);
});

test('gil creates the SCIM token in the console; suspending una over SCIM ends her keys, and reactivating restores nothing', async ({
  page,
  demo,
  request,
  as,
}) => {
  const unaId = await userIdOf(await as('gil'), demo.globex, 'una@globex.test');
  const una = await sessionFor('una@globex.test');
  const { secret } = await createKey(una, demo.globex, { name: 'una before suspension' });
  secrets.push(secret);
  const oauth = oauthTokens().una;
  expect(await statusWithKey(request, secret)).toBe(200);
  expect(await statusWithKey(request, oauth)).toBe(200);

  await signInAs(page, 'gil');
  await page.goto(`/orgs/${demo.globex}/members`);
  await page.getByRole('button', { name: 'Create SCIM token' }).click();
  await page
    .getByRole('alertdialog', { name: 'Create a SCIM token?' })
    .getByRole('button', { name: 'Create token' })
    .click();
  const reveal = page.getByRole('dialog', { name: 'Your SCIM token' });
  await reveal.getByRole('button', { name: 'Copy' }).click();
  await expect(reveal.getByText('Copied to the clipboard.')).toBeVisible();
  const token = await page.evaluate(() => navigator.clipboard.readText());
  secrets.push(token);
  await reveal.getByRole('button', { name: 'Done' }).click();
  await expect(reveal).toBeHidden();
  await expect(page.getByText('Created a SCIM token; any earlier token stopped working.')).toBeVisible();
  // The token's dialog was opened by the confirmation; focus returns to the button that started it all.
  await expect(page.getByRole('button', { name: 'Create SCIM token' })).toBeFocused();

  const found = await request.get(`/scim/v2/Users?filter=${encodeURIComponent('userName eq "una@globex.test"')}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect((await found.json()).Resources[0].id).toBe(unaId);
  const suspended = await scimPatch(request, token, unaId, [{ op: 'Replace', path: 'active', value: 'False' }]);
  expect((await suspended.json()).active).toBe(false);
  expect(await statusWithKey(request, secret)).toBe(401);
  expect(await statusWithKey(request, oauth)).toBe(401);
  expect((await una.get('/v1/organizations')).status()).toBe(401);

  const reactivated = await scimPatch(request, token, unaId, [{ op: 'replace', value: { active: true } }]);
  expect((await reactivated.json()).active).toBe(true);
  expect(await statusWithKey(request, secret)).toBe(401);
  expect(await statusWithKey(request, oauth)).toBe(401);
  const unaAgain = await sessionFor('una@globex.test');
  const listed = await unaAgain.get(`/v1/organizations/${demo.globex}/api-keys`);
  expect(listed.status()).toBe(200);
  const keys = (await listed.json()).items as { name: string }[];
  expect(keys.map((k) => k.name)).not.toContain('una before suspension');
  await Promise.all([una.dispose(), unaAgain.dispose()]);
});

test('no plaintext key or SCIM token is in the database files or the server log', async ({ fixtures, demo, as }) => {
  test.skip(!!process.env.DATABASE_URL, 'the embedded database’s files exist only without DATABASE_URL');
  // It reads every file of the database and the log: about 25 s beside the other suites.
  test.setTimeout(90_000);
  // A key made and revoked here, so the search has a fresh secret whichever tests ran before it.
  const gil = await as('gil');
  const own = await createKey(gil, demo.globex, { name: 'plaintext search' });
  expect((await gil.delete(`/v1/organizations/${demo.globex}/api-keys/${own.apiKey.id}`)).status()).toBe(204);
  const all = [own.secret, ...secrets, ...Object.values(fixtures.keys)];
  expect(all.length).toBeGreaterThanOrEqual(5);
  const files = filesUnder(path.join(dataDir, 'pglite'));
  expect(files.length).toBeGreaterThan(0);
  const contents = files.map((f) => readFileSync(f));
  const log = readFileSync(serverLog);
  for (const secret of all) {
    for (const content of [...contents, log]) expect(content.includes(secret)).toBe(false);
  }
  // The hashes are there: the search reads the data the server wrote, so the absence above means something.
  const hashes = all.map((s) => sha256Hex(s));
  expect(hashes.some((h) => contents.some((c) => c.includes(h)))).toBe(true);
  const still = await bearer(fixtures.keys.bobExpired);
  expect((await still.get('/v1/organizations')).status()).toBe(401);
  await still.dispose();
});

test('no audit event or export line contains a secret or a password, in either format', async ({
  as,
  demo,
  fixtures,
}) => {
  const ada = await as('ada');
  const own = await createKey(ada, demo.acme, { name: 'audit secret search' });
  expect((await ada.delete(`/v1/organizations/${demo.acme}/api-keys/${own.apiKey.id}`)).status()).toBe(204);
  const all = [
    own.secret,
    ...secrets,
    ...Object.values(fixtures.keys),
    ...Object.values(oauthTokens()),
    'correct-horse-battery',
  ];
  const events = await ada.get(`/v1/organizations/${demo.acme}/audit-events?limit=100&action=api_key.*`);
  const items = ((await events.json()) as { items: { action: string; target: { name: string } }[] }).items;
  // The log does name this key, by name and prefix: the absence below is of its secret only.
  expect(items.some((e) => e.action === 'api_key.revoked' && e.target.name.includes('audit secret search'))).toBe(true);
  for (const format of ['ndjson', 'csv']) {
    const exported = await (
      await ada.get(`/v1/organizations/${demo.acme}/audit-events/export?format=${format}`)
    ).text();
    expect(exported.length).toBeGreaterThan(1000);
    for (const secret of all) expect(exported.includes(secret)).toBe(false);
  }
  const log = readFileSync(serverLog, 'utf8');
  for (const secret of all) expect(log.includes(secret)).toBe(false);
  await ada.dispose();
});
