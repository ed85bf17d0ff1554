import { expect, test } from '../fixtures';
import { DAY_MS, listKeys, statusWithKey } from '../support/api-keys';
import { choose, readListsInBrowser, refuseWithIssues, signInAs } from '../support/console';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test('bob creates a 30-day key, copies it, closes; it works, is gone after reload, and revoking it ends it', async ({
  page,
  demo,
  request,
  as,
}) => {
  await signInAs(page, 'bob@acme.test');
  await page.goto(`/orgs/${demo.acme}/api-keys`);
  await page.getByRole('button', { name: 'Create API key' }).first().click();
  const form = page.getByRole('dialog', { name: 'Create API key' });
  await expect(form.getByRole('combobox', { name: 'Expires' })).toHaveText(/90 days/);
  await form.getByLabel('Name').fill('laptop deploys');
  await choose(page, 'Expires', '30 days');
  await expect(form.getByRole('combobox', { name: 'Owner' })).toHaveText(/Me/);
  await form.getByRole('button', { name: 'Create key' }).click();

  const reveal = page.getByRole('dialog', { name: 'Your new API key' });
  await expect(reveal.getByText('it will never be shown again')).toBeVisible();
  const secret = await reveal.getByLabel('API key').inputValue();
  expect(secret).toMatch(/^svc_[0-9A-Za-z]{40}$/);
  await reveal.getByRole('button', { name: 'Copy' }).click();
  await expect(reveal.getByText('Copied to the clipboard.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await page.screenshot({ path: 'test-results/screens/api-key-reveal.png' });
  await reveal.getByRole('button', { name: 'Done' }).click();
  await expect(reveal).toBeHidden();

  expect(await statusWithKey(request, secret)).toBe(200);
  const created = (await listKeys(await as('bob'), demo.acme)).find((k) => k.name === 'laptop deploys')!;
  expect(new Date(created.expiresAt!).getTime() - new Date(created.createdAt).getTime()).toBe(30 * DAY_MS);

  const row = page.getByRole('row', { name: /laptop deploys/ });
  await expect(row).toContainText(`${secret.slice(0, 8)}…`);
  await expect(row).toContainText('You');
  await page.reload();
  await expect(row).toBeVisible();
  expect(await page.content()).not.toContain(secret);
  expect(page.url()).not.toContain(secret);
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  expect(stored).not.toContain(secret);
  await page.goBack();
  expect(await page.content()).not.toContain(secret);
  await page.goto(`/orgs/${demo.acme}/api-keys`);
  await page.screenshot({ path: 'test-results/screens/api-keys-table.png' });

  await row.getByRole('button', { name: 'Revoke laptop deploys' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Revoke “laptop deploys”?' });
  await expect(confirm).toContainText('stops working immediately');
  await confirm.getByRole('button', { name: 'Revoke key' }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toHaveCount(0);
  expect(await statusWithKey(request, secret)).toBe(401);
});

test('closing the reveal without copying asks first', async ({ page, demo }) => {
  await signInAs(page, 'bob@acme.test');
  await page.goto(`/orgs/${demo.acme}/api-keys`);
  await page.getByRole('button', { name: 'Create API key' }).first().click();
  await page.getByRole('dialog', { name: 'Create API key' }).getByLabel('Name').fill('uncopied');
  await page.keyboard.press('Enter');
  const reveal = page.getByRole('dialog', { name: 'Your new API key' });
  await expect(reveal.getByLabel('API key')).toHaveValue(/^svc_/);
  await page.keyboard.press('Escape');
  await expect(reveal.getByText('You have not copied it. Close anyway?')).toBeVisible();
  await reveal.getByRole('button', { name: 'Go back' }).click();
  await expect(reveal.getByLabel('API key')).toHaveValue(/^svc_/);
  await reveal.getByRole('button', { name: 'Done' }).click();
  await reveal.getByRole('button', { name: 'Close without copying' }).click();
  await expect(reveal).toBeHidden();
  await expect(page.getByRole('row', { name: /uncopied/ })).toBeVisible();
});

test('the form checks the name before sending, and a server issue lands on its field', async ({ page, demo }) => {
  await signInAs(page, 'bob@acme.test');
  await page.goto(`/orgs/${demo.acme}/api-keys`);
  await page.getByRole('button', { name: 'Create API key' }).first().click();
  const form = page.getByRole('dialog', { name: 'Create API key' });
  await form.getByRole('button', { name: 'Create key' }).click();
  await expect(form.getByText('Enter a name.')).toBeVisible();
  await expect(form.getByLabel('Name')).toBeFocused();

  // A rule only the server knows (simulated): its issue must appear under the field it names.
  await page.route('**/v1/organizations/*/api-keys', (route) =>
    route.request().method() === 'POST'
      ? refuseWithIssues(route, [{ path: 'name', message: 'That name is taken.' }])
      : route.fallback(),
  );
  await form.getByLabel('Name').fill('dup');
  await form.getByRole('button', { name: 'Create key' }).click();
  await expect(form.getByText('That name is taken.')).toBeVisible();
  await expect(form.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
});

test('the 1 year and Never choices reach the API; the list shows each expiry, and Last used once the key is used', async ({
  page,
  demo,
  request,
  as,
}) => {
  const unique = Date.now().toString(36);
  const bob = await as('bob');
  await signInAs(page, 'bob@acme.test');
  await page.goto(`/orgs/${demo.acme}/api-keys`);
  const secrets: Record<string, string> = {};
  for (const [name, choice] of [
    [`yearly ${unique}`, '1 year'],
    [`forever ${unique}`, 'Never'],
  ]) {
    await page.getByRole('button', { name: 'Create API key' }).first().click();
    const form = page.getByRole('dialog', { name: 'Create API key' });
    await form.getByLabel('Name').fill(name);
    await choose(page, 'Expires', choice);
    await form.getByRole('button', { name: 'Create key' }).click();
    const reveal = page.getByRole('dialog', { name: 'Your new API key' });
    secrets[name] = await reveal.getByLabel('API key').inputValue();
    await reveal.getByRole('button', { name: 'Copy' }).click();
    await reveal.getByRole('button', { name: 'Done' }).click();
    await expect(reveal).toBeHidden();
  }
  const listed = await listKeys(bob, demo.acme);
  const yearly = listed.find((k) => k.name === `yearly ${unique}`)!;
  const forever = listed.find((k) => k.name === `forever ${unique}`)!;
  expect(new Date(yearly.expiresAt!).getTime() - new Date(yearly.createdAt).getTime()).toBe(365 * DAY_MS);
  expect(forever.expiresAt).toBeNull();

  // Columns after the name: key, owner, created, expires, last used.
  const cells = (name: string) => page.getByRole('row', { name: new RegExp(name) }).getByRole('cell');
  await expect(cells(`yearly ${unique}`).nth(3).locator('time')).toHaveAttribute('datetime', yearly.expiresAt!);
  await expect(cells(`forever ${unique}`).nth(3)).toHaveText('Never');
  await expect(cells(`yearly ${unique}`).nth(4)).toHaveText('Never');

  expect(await statusWithKey(request, secrets[`yearly ${unique}`])).toBe(200);
  await expect
    .poll(async () => (await listKeys(bob, demo.acme)).find((k) => k.id === yearly.id)?.lastUsedAt)
    .toBeTruthy();
  await page.reload();
  await expect(cells(`yearly ${unique}`).nth(4).locator('time')).toHaveAttribute('datetime', /^\d{4}-/);
  await expect(cells(`yearly ${unique}`).nth(4)).toHaveText(/ago|just now|second|minute/);
  await expect(cells(`forever ${unique}`).nth(4)).toHaveText('Never');
});

test('ada sees everyone’s keys with their owners and can narrow to her own; cy sees only hers', async ({
  page,
  demo,
  as,
}) => {
  const bobKey = (await (
    await as('bob')
  )
    .post(`/v1/organizations/${demo.acme}/api-keys`, { data: { name: 'bob for ada' } })
    .then((r) => r.json())) as {
    apiKey: { id: string };
    secret: string;
  };
  // A bot's key made now, so that it is on the first page however many keys earlier files left in Acme.
  const botKey = await (
    await as('ada')
  ).post(`/v1/organizations/${demo.acme}/api-keys`, { data: { name: 'bot key for ada', botId: demo.deployBot } });
  expect(botKey.status(), await botKey.text()).toBe(201);
  await signInAs(page, 'ada@acme.test');
  await page.goto(`/orgs/${demo.acme}/api-keys`);
  const row = page.getByRole('row', { name: /bob for ada/ });
  await expect(row).toContainText('Bob Builder');
  await expect(page.getByRole('row', { name: /bot key for ada/ })).toContainText('deploy-bot');
  await choose(page, 'Owner', 'Only mine');
  await expect(row).toHaveCount(0);
  await choose(page, 'Owner', 'Everyone');
  await row.getByRole('button', { name: 'Revoke bob for ada' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke key' }).click();
  await expect(row).toHaveCount(0);

  await page.context().clearCookies();
  await signInAs(page, 'cy@acme.test');
  await page.goto(`/orgs/${demo.acme}/api-keys`);
  await expect(page.getByRole('combobox', { name: 'Owner' })).toHaveCount(0);
  await expect(page.getByRole('row', { name: /bob/ })).toHaveCount(0);
  expect(bobKey.secret).toMatch(/^svc_/);
});

test('loading failures and an empty list have their own states', async ({ page, demo }) => {
  await readListsInBrowser(page);
  await signInAs(page, 'bob@acme.test');
  await page.route('**/v1/organizations/*/api-keys?*', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ items: [], nextCursor: null }),
    }),
  );
  await page.goto(`/orgs/${demo.acme}/api-keys`);
  await expect(page.getByText('You have no keys in this organization yet.')).toBeVisible();
  await page.unroute('**/v1/organizations/*/api-keys?*');
  await page.route('**/v1/organizations/*/api-keys?*', (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'unavailable', message: 'The service is temporarily unavailable.' } }),
    }),
  );
  await page.reload();
  await expect(page.getByRole('alert').filter({ hasText: 'Could not load API keys' })).toBeVisible();
});
