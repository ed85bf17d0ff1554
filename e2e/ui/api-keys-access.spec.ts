import { expect, test } from '../fixtures';
import { listKeys } from '../support/api-keys';
import { expectAccessible, expectAccessibleInBothSchemes, WIDTHS } from '../support/axe';
import { choose, signInAs } from '../support/console';

// The create dialog's "Access", by keyboard only, on a desktop and a phone, each checked by axe in both schemes.
for (const width of WIDTHS) {
  test(`bob makes a restricted key by keyboard at ${width} px; it is badged in the list`, async ({
    page,
    demo,
    as,
  }) => {
    // A long keyboard flow with six axe scans (three points, both schemes): past 30 s on a machine at half speed.
    test.slow();
    await page.setViewportSize({ width, height: 800 });
    await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
    await signInAs(page, 'bob@acme.test');
    await page.goto(`/orgs/${demo.acme}/api-keys`);
    const name = `access ${width} ${Date.now()}`;
    await page.getByRole('button', { name: 'Create API key' }).first().focus();
    await page.keyboard.press('Enter');
    const form = page.getByRole('dialog', { name: 'Create API key' });
    await expect(form.getByLabel('Name')).toBeFocused();
    await page.keyboard.type(name);

    const restricted = form.getByRole('radio', { name: 'Restricted' });
    await form.getByRole('radio', { name: 'Full access' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(restricted).toBeChecked();
    // What a restricted key can never do, said before it is made.
    await expect(form.getByText(/never acts on your own account: it\s+cannot make you leave/)).toBeVisible();

    // bob holds obs.silences.update only in Production: disabled until Production is chosen, and it says so; the
    // dialog offers Production, and choosing it moves focus to the first permission it made available.
    const update = form.getByRole('checkbox', { name: 'obs.silences.update' });
    await expect(update).toBeDisabled();
    await expect(update).toHaveAccessibleDescription('yours only in Production: choose a project below');
    const membersList = form.getByRole('checkbox', { name: 'members.list' });
    await expect(membersList).toBeDisabled();
    await expect(membersList).toHaveAccessibleDescription('you do not hold it');
    await form.getByRole('button', { name: 'Choose Production' }).focus();
    await page.keyboard.press('Enter');
    await expect(form.getByRole('checkbox', { name: 'Production' })).toBeChecked();
    await expect(update).toBeEnabled();
    await expect(form.getByRole('button', { name: 'Choose Production' })).toHaveCount(0);
    // bob's Production roles are QueuesEditor and SilencesEditor: one of their permissions has focus.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toMatch(/^access-(queues|obs)\./);
    await update.focus();
    await page.keyboard.press('Space');
    await form.getByRole('checkbox', { name: 'obs.silences.list' }).focus();
    await page.keyboard.press('Space');
    await form.getByRole('button', { name: /Add my address/ }).focus();
    await page.keyboard.press('Enter');
    await expect(form.getByLabel('IP range 1', { exact: true })).toHaveValue('127.0.0.1');
    await form.getByRole('button', { name: 'Add range' }).focus();
    await page.keyboard.press('Enter');
    await form.getByLabel('IP range 2', { exact: true }).focus();
    await page.keyboard.type('not-an-address');
    await expectAccessibleInBothSchemes(page, `create dialog, restricted, ${width} px`, {
      name: `api-key-access-${width}`,
      fullPage: true,
    });

    // The server's 400 lands on the axis, naming the entry; then fixed, the key is made.
    await form.getByRole('button', { name: 'Create key' }).focus();
    await page.keyboard.press('Enter');
    await expect(form.getByText(/not-an-address: Enter an IPv4 or IPv6 address/)).toBeVisible();
    await form.getByRole('button', { name: 'Remove IP range 2' }).focus();
    await page.keyboard.press('Enter');
    await form.getByRole('button', { name: 'Create key' }).focus();
    await page.keyboard.press('Enter');
    const reveal = page.getByRole('dialog', { name: 'Your new API key' });
    await expect(reveal).toBeVisible();
    await reveal.getByRole('button', { name: 'Done' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Close without copying' }).focus();
    await page.keyboard.press('Enter');
    await expect(reveal).toBeHidden();

    const created = (await listKeys(await as('bob'), demo.acme)).find((k) => k.name === name)!;
    expect(created).toMatchObject({
      permissions: ['obs.silences.update', 'obs.silences.list'],
      projectIds: [demo.production],
      allowedIps: ['127.0.0.1/32'],
    });
    const row = page.getByRole('row', { name: new RegExp(name) });
    await expect(row).toContainText('Restricted');
    await expectAccessibleInBothSchemes(page, `key list with a restricted key, ${width} px`);

    // Its access: the restriction in words, and what it would use of bob's permissions, by project.
    await row.getByRole('button', { name: `Access of ${name}` }).focus();
    await page.keyboard.press('Enter');
    const access = page.getByRole('dialog', { name: `Access of “${name}”` });
    await expect(access).toContainText('Restricted to 2 permissions; 1 project; from 127.0.0.1/32');
    const production = access.getByRole('region', { name: 'Production' });
    await expect(production.getByRole('listitem')).toHaveText(['obs.silences.update', 'obs.silences.list']);
    // The four doors a narrowed key keeps, and nothing else of bob's own account.
    const doors = access.getByRole('region', { name: 'Always open to this key' }).getByRole('listitem');
    await expect(doors).toHaveCount(4);
    await expect(doors.last()).toContainText('revoke itself');
    await expectAccessibleInBothSchemes(page, `key access dialog, ${width} px`, {
      name: `api-key-access-dialog-${width}`,
    });
    await page.keyboard.press('Escape');
    await expect(access).toBeHidden();
  });
}

test('bob starts a key from what SilencesEditor may do in Production, then narrows it', async ({ page, demo, as }) => {
  await signInAs(page, 'bob@acme.test');
  await page.goto(`/orgs/${demo.acme}/api-keys`);
  await page.getByRole('button', { name: 'Create API key' }).first().click();
  const form = page.getByRole('dialog', { name: 'Create API key' });
  const name = `from a role ${Date.now()}`;
  await form.getByLabel('Name').fill(name);
  await form.getByRole('radio', { name: 'Restricted' }).check();
  await expect(form.getByRole('combobox', { name: 'Start from a role' })).toHaveText(/SilencesEditor/);
  await choose(page, 'In', 'Production');
  await form.getByRole('button', { name: 'Tick its permissions' }).click();
  await expect(form.getByRole('status').filter({ hasText: 'Ticked' })).toHaveText(
    'Ticked obs.silences.create and obs.silences.update of SilencesEditor, in Production: untick what the key does not need.',
  );
  await expect(form.getByRole('checkbox', { name: 'Production' })).toBeChecked();
  const ticked = form.getByRole('checkbox', { checked: true });
  await expect(ticked).toHaveCount(3);
  await expectAccessible(page, 'create dialog started from a role');
  // Narrowed: this key only changes silences.
  await form.getByRole('checkbox', { name: 'obs.silences.create' }).uncheck();
  await form.getByRole('button', { name: 'Create key' }).click();
  const reveal = page.getByRole('dialog', { name: 'Your new API key' });
  await expect(reveal).toBeVisible();
  const created = (await listKeys(await as('bob'), demo.acme)).find((k) => k.name === name)!;
  expect(created).toMatchObject({ permissions: ['obs.silences.update'], projectIds: [demo.production] });
});

// The policy binds every later key of Globex: it goes however the test below ends, a timeout included (a timed-out
// test body runs no `finally`).
test.describe('the key policy', () => {
  test.afterEach(async ({ as, demo }) => {
    const removed = await (await as('gil')).patch(`/v1/organizations/${demo.globex}`, { data: { keyPolicy: null } });
    expect(removed.status()).toBe(200);
  });

  test('gil sets the key policy by keyboard; an older key is badged as breaking it until it is removed', async ({
    page,
    demo,
    as,
  }) => {
    const gil = await as('gil');
    const older = `older ${Date.now()}`;
    const made = await gil.post(`/v1/organizations/${demo.globex}/api-keys`, { data: { name: older } });
    expect(made.status()).toBe(201);
    await page.emulateMedia({ colorScheme: 'dark', reducedMotion: 'reduce' });
    await signInAs(page, 'gil@globex.test');
    await page.goto(`/orgs/${demo.globex}/settings`);
    const policy = page.getByRole('region', { name: 'API key policy' });
    const days = policy.getByLabel('Longest lifetime in days');
    await expect(days).toBeEnabled();
    await days.focus();
    await page.keyboard.type('30');
    await policy.getByLabel('Require restricted keys (no Full access)').focus();
    await page.keyboard.press('Space');
    await policy.getByLabel('Allowed IP ranges').focus();
    await page.keyboard.type('127.0.0.0/8\n::1');
    await expectAccessible(page, 'settings page with the key policy form, dark');
    await page.screenshot({ path: 'test-results/screens/key-policy.png' });
    await policy.getByRole('button', { name: 'Save key policy' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByText('Key policy saved.')).toBeVisible();
    const org = (
      (await (await gil.get('/v1/organizations')).json()) as { items: { id: string; keyPolicy: unknown }[] }
    ).items.find((o) => o.id === demo.globex);
    expect(org?.keyPolicy).toEqual({
      maxLifetimeDays: 30,
      requireRestrictions: true,
      allowedIps: ['127.0.0.0/8', '::1/128'],
    });
    await page.goto(`/orgs/${demo.globex}/api-keys`);
    await expect(page.getByRole('row', { name: new RegExp(older) })).toContainText('Breaks key policy');
    await page.goto(`/orgs/${demo.globex}/settings`);
    await policy.getByRole('button', { name: 'Remove key policy' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByText('Key policy removed.')).toBeVisible();
  });
});
