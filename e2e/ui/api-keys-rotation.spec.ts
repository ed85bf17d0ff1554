import { bearer, expect, test } from '../fixtures';
import { createKey, listKeys, statusWithKey } from '../support/api-keys';
import { choose, signInAs } from '../support/console';
import { leak, postReport, serverScannerKey } from '../support/secret-scanning';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test('bob rolls a key with a grace period: the new secret in the reveal dialog, the old key badged as rolling', async ({
  page,
  demo,
  as,
  request,
}) => {
  const name = `ui-roll-${Date.now()}`;
  const old = await createKey(await as('bob'), demo.acme, { name });
  await signInAs(page, 'bob@acme.test');
  await page.goto(`/orgs/${demo.acme}/api-keys`);
  await page.getByRole('button', { name: `Roll ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Roll “${name}”` });
  await choose(page, 'Old key keeps working for', '1 hour');
  await dialog.getByRole('button', { name: 'Roll key' }).click();

  const reveal = page.getByRole('dialog', { name: 'Your new API key' });
  const secret = await reveal.getByLabel('API key').inputValue();
  expect(secret).toMatch(/^svc_[0-9A-Za-z]{40}$/);
  await reveal.getByRole('button', { name: 'Copy' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await reveal.getByRole('button', { name: 'Done' }).click();
  await expect(reveal).toBeHidden();

  const rows = page.getByRole('row', { name: new RegExp(name) });
  await expect(rows).toHaveCount(2);
  await expect(page.getByRole('row', { name: new RegExp(`${name}.*${old.apiKey.prefix}`) })).toContainText('Rolling');
  await expect(page.getByRole('row', { name: new RegExp(`${name}.*${secret.slice(0, 8)}`) })).not.toContainText(
    'Rolling',
  );
  expect(await statusWithKey(request, secret)).toBe(200);
  expect(await statusWithKey(request, old.secret)).toBe(200);
  const listed = (await listKeys(await as('bob'), demo.acme)).find((k) => k.id === old.apiKey.id)!;
  expect(new Date(listed.stopsAt!).getTime() - new Date(listed.rolledAt!).getTime()).toBe(3_600_000);
});

test('a reported leak shows a notice naming the key, where and when, until bob dismisses it', async ({
  page,
  demo,
  as,
}) => {
  const name = `ui-leak-${Date.now()}`;
  const key = await createKey(await as('bob'), demo.acme, { name });
  const url = `https://example.test/bob/dotfiles/blob/main/${name}.env`;
  const res = await postReport(JSON.stringify([leak(key.secret, url)]), serverScannerKey());
  expect(res.status, res.text).toBe(200);

  await signInAs(page, 'bob@acme.test');
  await page.goto(`/orgs/${demo.acme}/api-keys`);
  const notice = page.getByRole('alert').filter({ hasText: name });
  await expect(notice).toContainText(`“${name}” (${key.apiKey.prefix}…) was found in public and has been revoked.`);
  await expect(notice.getByRole('link', { name: url })).toHaveAttribute('href', url);
  await expect(notice.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT/);
  await expect(page.getByRole('row', { name: new RegExp(name) })).toHaveCount(0);
  await notice.getByRole('button', { name: `Dismiss the notice about ${name}` }).click();
  await expect(notice).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: name })).toHaveCount(0);
});

test('the usage chart shows the requests made with the key today', async ({ page, demo, as }) => {
  const name = `ui-usage-${Date.now()}`;
  const bob = await as('bob');
  const key = await createKey(bob, demo.acme, { name, expiresInDays: 3 });
  const asKey = await bearer(key.secret);
  for (let i = 0; i < 4; i++) expect((await asKey.get('/v1/organizations')).status()).toBe(200);
  await asKey.dispose();
  await expect
    .poll(
      async () =>
        (await (await bob.get(`/v1/organizations/${demo.acme}/api-keys/${key.apiKey.id}/usage`)).json()).days.at(-1)
          .requests,
    )
    .toBe(4);

  await signInAs(page, 'bob@acme.test');
  await page.goto(`/orgs/${demo.acme}/api-keys`);
  await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText('Expiring soon');
  await choose(page, 'Expiry', 'Expiring soon');
  await expect(page.getByRole('row', { name: new RegExp(name) })).toBeVisible();
  await expect(page.getByRole('row', { name: /e2e deploy-bot/ })).toHaveCount(0);

  await page.getByRole('button', { name: `Usage of ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Usage of “${name}”` });
  await expect(dialog.getByTestId('usage-summary')).toHaveText('4 requests in 30 days, 4 today.');
  // The id the API and the CLI take, with its copy button.
  await expect(dialog.getByText(key.apiKey.id, { exact: true })).toBeVisible();
  await expect(dialog.getByRole('button', { name: `Copy ID of the key ${name}` })).toBeVisible();
  await expect(dialog.locator('.recharts-bar-rectangle path, .recharts-bar-rectangle rect').first()).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  // Focus goes back to the row's button that opened the chart.
  await expect(page.getByRole('button', { name: `Usage of ${name}` })).toBeFocused();
});
