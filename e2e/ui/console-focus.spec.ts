import { expect, test } from '../fixtures';
import { createKey } from '../support/api-keys';
import { signInAs } from '../support/console';
import { loadDemoSubs } from '../support/subscriptions';
import { demoSilence } from '../support/silences';

test('every dialog returns focus to its opener, whichever way it closes', async ({ page, demo, as }) => {
  // Six pages and six dialogs, each dialog's code fetched on its first opening: more than 30 s on a busy machine.
  test.setTimeout(120_000);
  await createKey(await as('ada'), demo.acme, { name: 'focus probe' });
  await signInAs(page, 'ada@acme.test');

  await page.goto(`/orgs/${demo.acme}/api-keys`);
  const create = page.getByRole('button', { name: 'Create API key' }).first();
  await create.click();
  // The editors load when first opened: Escape is pressed once the dialog is there, as a person would.
  await expect(page.getByRole('dialog', { name: 'Create API key' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(create).toBeFocused();
  await create.click();
  await page.getByRole('dialog', { name: 'Create API key' }).getByRole('button', { name: 'Cancel' }).click();
  await expect(create).toBeFocused();

  const revoke = page.getByRole('button', { name: 'Revoke focus probe' }).first();
  await revoke.click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(revoke).toBeFocused();

  await page.goto(`/orgs/${demo.acme}/members`);
  const remove = page.getByRole('button', { name: 'Remove Bob Builder' });
  await remove.click();
  // The confirmation's code loads on its first opening: Escape is for the dialog once it is there.
  await expect(page.getByRole('alertdialog')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(remove).toBeFocused();

  await page.goto(`/orgs/${demo.acme}/bots`);
  const del = page.getByRole('button', { name: /^Delete / }).first();
  await del.click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(del).toBeFocused();

  const subs = await loadDemoSubs(demo);
  await page.goto(`/orgs/${demo.acme}/projects/${demo.production}/subscriptions`);
  const edit = page.getByRole('button', { name: `Edit ${subs.https.slug}` });
  await edit.click();
  await expect(page.getByRole('dialog', { name: `Subscription ${subs.https.slug}` })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(edit).toBeFocused();

  const silence = await demoSilence(await as('ada'), demo, 'scheduled');
  await page.goto(`/orgs/${demo.acme}/projects/${demo.production}/silences`);
  await page.getByRole('tab', { name: /Scheduled/ }).click();
  const open = page.locator(`tr[data-silence-id="${silence.id}"]`).getByRole('button', { name: /Edit/ });
  await open.click();
  const dialog = page.getByRole('dialog', { name: 'Edit silence' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(open).toBeFocused();
});

test('revoking announces it, and focus goes to the heading when the row is gone', async ({ page, demo, as }) => {
  await createKey(await as('ada'), demo.acme, { name: 'revoke probe' });
  await signInAs(page, 'ada@acme.test');
  await page.goto(`/orgs/${demo.acme}/api-keys`);
  await page.getByRole('button', { name: 'Revoke revoke probe' }).first().click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke key' }).click();
  await expect(page.getByText('Revoked “revoke probe”.')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeFocused();
});

// A confirmation's code is not in the page's script; it loads once a person is there (focus, the pointer), so that by
// the time they press Revoke it opens at once, and an Escape pressed right after closes it instead of being lost
// while the code is fetched.
test('a confirmation is loaded before it is asked for: Enter then Escape at once leaves it closed', async ({
  page,
  demo,
  as,
}) => {
  await createKey(await as('ada'), demo.acme, { name: 'escape probe' });
  await signInAs(page, 'ada@acme.test');
  await page.goto(`/orgs/${demo.acme}/api-keys`);
  await page.waitForLoadState('networkidle');
  const loading: Promise<unknown>[] = [];
  page.on('request', (request) => request.resourceType() === 'script' && loading.push(request.response()));
  const revoke = page.getByRole('button', { name: 'Revoke escape probe' }).first();
  await revoke.focus();
  // Focus alone fetches the confirmation's code (and the create dialog's).
  await expect.poll(() => loading.length, { message: 'no script was fetched when focus arrived' }).toBeGreaterThan(0);
  await Promise.all(loading);
  const before = loading.length;
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  // Two frames: a dialog still on its way would be on screen by then.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await expect(revoke).toBeFocused();
  expect(loading.length, 'opening fetched more script').toBe(before);
  // And it does open, from the keyboard, with focus on Cancel.
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' })).toBeFocused();
});

test('creating a key announces it; a failure that is not about a field is a toast', async ({ page, demo }) => {
  await signInAs(page, 'ada@acme.test');
  await page.goto(`/orgs/${demo.acme}/api-keys`);
  await page.getByRole('button', { name: 'Create API key' }).first().click();
  const form = page.getByRole('dialog', { name: 'Create API key' });
  await form.getByLabel('Name').fill('toast probe');
  await form.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByText('Created “toast probe”. Copy the key now.')).toBeVisible();
  const reveal = page.getByRole('dialog', { name: 'Your new API key' });
  await reveal.getByRole('button', { name: 'Done' }).click();
  await reveal.getByRole('button', { name: 'Close without copying' }).click();
  // The reveal opened from the create dialog; focus goes back to the button that began it.
  await expect(page.getByRole('button', { name: 'Create API key' }).first()).toBeFocused();

  await page.route('**/v1/organizations/*/api-keys', (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({
          status: 503,
          headers: { 'content-type': 'application/json', 'retry-after': '1' },
          body: JSON.stringify({ error: { code: 'unavailable', message: 'The database is unavailable.' } }),
        })
      : route.fallback(),
  );
  await page.getByRole('button', { name: 'Create API key' }).first().click();
  await form.getByLabel('Name').fill('never made');
  await form.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByText('Could not create the key')).toBeVisible();
  await expect(page.getByText('The database is unavailable.')).toBeVisible();
  await expect(form).toBeVisible();
});

test('the silence editor asks before discarding edits, and keeps focus on operators and matcher rows', async ({
  page,
  demo,
  as,
}) => {
  const silence = await demoSilence(await as('bob'), demo, 'scheduled');
  await signInAs(page, 'bob@acme.test');
  await page.goto(`/orgs/${demo.acme}/projects/${demo.production}/silences`);
  await page.getByRole('tab', { name: /Scheduled/ }).click();
  const open = page.locator(`tr[data-silence-id="${silence.id}"]`).getByRole('button', { name: /Edit/ });
  await open.click();
  const dialog = page.getByRole('dialog', { name: 'Edit silence' });

  const operator = dialog.getByRole('combobox', { name: 'Operator' }).first();
  await operator.click();
  await page.getByRole('option', { name: '!= differs', exact: true }).click();
  await expect(operator).toHaveText(/!= differs/);
  await expect(operator).toBeFocused();
  await dialog.getByRole('button', { name: 'Add matcher' }).click();
  await dialog.getByRole('button', { name: 'Add matcher' }).click();
  const rows = dialog.locator('[data-testid^="matcher-"]');
  const count = await rows.count();
  await dialog.getByRole('button', { name: `Remove matcher ${count - 1}` }).click();
  await expect(rows).toHaveCount(count - 1);
  // The Remove button now in that place (the last row's) has focus, not the page.
  await expect(dialog.getByRole('button', { name: `Remove matcher ${count - 1}` })).toBeFocused();

  await page.keyboard.press('Escape');
  const prompt = dialog.getByRole('alertdialog', { name: 'Discard your unsaved changes?' });
  await expect(prompt).toBeVisible();
  await expect(prompt.getByRole('button', { name: 'Keep editing' })).toBeFocused();
  await prompt.getByRole('button', { name: 'Keep editing' }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await prompt.getByRole('button', { name: 'Discard changes' }).click();
  await expect(dialog).toBeHidden();
  await expect(open).toBeFocused();
});

test('the subscription editor asks before discarding edits', async ({ page, demo }) => {
  const subs = await loadDemoSubs(demo);
  await signInAs(page, 'ada@acme.test');
  await page.goto(`/orgs/${demo.acme}/projects/${demo.production}/subscriptions`);
  await page.getByRole('button', { name: `Edit ${subs.https.slug}` }).click();
  const dialog = page.getByRole('dialog', { name: `Subscription ${subs.https.slug}` });
  await dialog.getByLabel('Batch size').fill('7');
  await page.keyboard.press('Escape');
  await expect(dialog.getByRole('alertdialog', { name: 'Discard your unsaved changes?' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog.getByLabel('Batch size')).toHaveValue('7');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.getByRole('button', { name: 'Discard changes' }).click();
  await expect(dialog).toBeHidden();
});

test('a dialog taller than the window keeps its actions on screen', async ({ page, demo }) => {
  await page.setViewportSize({ width: 390, height: 600 });
  const subs = await loadDemoSubs(demo);
  await signInAs(page, 'ada@acme.test');
  await page.goto(`/orgs/${demo.acme}/projects/${demo.production}/subscriptions`);
  await page.getByRole('button', { name: `Edit ${subs.https.slug}` }).click();
  const save = page.getByRole('dialog').getByRole('button', { name: 'Save changes' });
  await expect(save).toBeInViewport();
});
