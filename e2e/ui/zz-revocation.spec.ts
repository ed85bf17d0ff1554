import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { sha256Hex } from '../../lib/auth/api-key-format';
import { bearer, expect, sessionFor, test } from '../fixtures';
import { createKey, oauthTokens, scimPatch, statusWithKey } from '../support/api-keys';
import { signInAs } from '../support/console';
import { dataDir, serverLog } from '../support/env';

// The demo's own cy, deploy-bot and bob, as the issue names them. This file changes shared demo data
// (cy leaves Acme, deploy-bot is deleted, bob's keys and sessions end), so its name sorts it last of the run.
test.describe.configure({ mode: 'serial' });
test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

const secrets: string[] = [];

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

test('ada removes cy from Acme in the console; cy’s keys are 401 at once', async ({ page, demo, request }) => {
  const cy = await sessionFor('cy');
  const { secret } = await createKey(cy, demo.acme, { name: 'cy before removal' });
  secrets.push(secret);
  expect(await statusWithKey(request, secret)).toBe(200);

  await signInAs(page, 'ada@acme.test');
  await page.goto(`/orgs/${demo.acme}/members`);
  await page.getByRole('button', { name: 'Remove Cy Twombly' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Remove Cy Twombly from Acme?' });
  await expect(confirm).toContainText('Every API key they own in this organization is revoked immediately.');
  await page.screenshot({ path: 'test-results/screens/remove-member.png' });
  await confirm.getByRole('button', { name: 'Remove member' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole('row', { name: /Cy Twombly/ })).toHaveCount(0);
  expect(await statusWithKey(request, secret)).toBe(401);
  await cy.dispose();
});

test('ada deletes deploy-bot in the console; its keys are 401 at once', async ({
  page,
  demo,
  request,
  fixtures,
  as,
}) => {
  const { secret } = await createKey(await as('ada'), demo.acme, { name: 'deploy-bot fresh', botId: demo.deployBot });
  secrets.push(secret, fixtures.keys.deployBot);
  expect(await statusWithKey(request, secret)).toBe(200);
  expect(await statusWithKey(request, fixtures.keys.deployBot)).toBe(200);

  await signInAs(page, 'ada@acme.test');
  await page.goto(`/orgs/${demo.acme}/bots`);
  await page.getByRole('button', { name: 'Delete deploy-bot' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete deploy-bot?' });
  await expect(confirm).toContainText('Every API key it owns is revoked immediately.');
  await confirm.getByRole('button', { name: 'Delete bot' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText('This organization has no bots.')).toBeVisible();
  expect(await statusWithKey(request, secret)).toBe(401);
  expect(await statusWithKey(request, fixtures.keys.deployBot)).toBe(401);
});

test('ada creates the SCIM token in the console; suspending bob over SCIM ends his keys, and reactivating restores nothing', async ({
  page,
  demo,
  request,
}) => {
  const bob = await sessionFor('bob');
  const { secret } = await createKey(bob, demo.acme, { name: 'bob before suspension' });
  secrets.push(secret);
  const oauth = oauthTokens().bob;
  expect(await statusWithKey(request, secret)).toBe(200);
  expect(await statusWithKey(request, oauth)).toBe(200);

  await signInAs(page, 'ada@acme.test');
  await page.goto(`/orgs/${demo.acme}/members`);
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

  const found = await request.get(`/scim/v2/Users?filter=${encodeURIComponent('userName eq "bob@acme.test"')}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const bobId = (await found.json()).Resources[0].id as string;
  expect(bobId).toBe(demo.users.bob);
  const suspended = await scimPatch(request, token, bobId, [{ op: 'Replace', path: 'active', value: 'False' }]);
  expect((await suspended.json()).active).toBe(false);
  expect(await statusWithKey(request, secret)).toBe(401);
  expect(await statusWithKey(request, oauth)).toBe(401);
  expect((await bob.get('/v1/organizations')).status()).toBe(401);

  const reactivated = await scimPatch(request, token, bobId, [{ op: 'replace', value: { active: true } }]);
  expect((await reactivated.json()).active).toBe(true);
  expect(await statusWithKey(request, secret)).toBe(401);
  expect(await statusWithKey(request, oauth)).toBe(401);
  const bobAgain = await sessionFor('bob');
  expect((await bobAgain.get(`/v1/organizations/${demo.acme}/api-keys`)).status()).toBe(200);
  const keys = (await (await bobAgain.get(`/v1/organizations/${demo.acme}/api-keys`)).json()).items as {
    name: string;
  }[];
  expect(keys.map((k) => k.name)).not.toContain('bob before suspension');
  await Promise.all([bob.dispose(), bobAgain.dispose()]);
});

test('no plaintext key or SCIM token is in the database files or the server log', async ({ fixtures }) => {
  test.skip(!!process.env.DATABASE_URL, 'the embedded database’s files exist only without DATABASE_URL');
  const all = [...secrets, ...Object.values(fixtures.keys)];
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
  const all = [...secrets, ...Object.values(fixtures.keys), ...Object.values(oauthTokens()), 'correct-horse-battery'];
  const ada = await as('ada');
  const events = await ada.get(`/v1/organizations/${demo.acme}/audit-events?limit=100&action=api_key.*`);
  const revoked = ((await events.json()) as { items: { action: string; target: { name: string } }[] }).items;
  // The log does name these keys, by name and prefix: the absence below is of their secrets only.
  expect(revoked.some((e) => e.action === 'api_key.revoked' && e.target.name.includes('cy before removal'))).toBe(true);
  for (const format of ['ndjson', 'csv']) {
    const exported = await (
      await ada.get(`/v1/organizations/${demo.acme}/audit-events/export?format=${format}`)
    ).text();
    expect(exported.length).toBeGreaterThan(1000);
    for (const secret of all) expect(exported.includes(secret)).toBe(false);
  }
  const log = readFileSync(serverLog, 'utf8');
  for (const secret of all) expect(log.includes(secret)).toBe(false);
});
