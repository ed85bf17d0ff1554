import { expect, test } from '../fixtures';
import { listKeys } from '../support/api-keys';
import { expectAccessible } from '../support/axe';
import { signInAs } from '../support/console';

// The create dialog's "Access", by keyboard only, on a desktop and a phone, checked by axe in both schemes.
for (const { width, colorScheme } of [
  { width: 1280, colorScheme: 'light' },
  { width: 320, colorScheme: 'dark' },
] as const) {
  test(`bob makes a restricted key by keyboard at ${width} px (${colorScheme}); it is badged in the list`, async ({
    page,
    demo,
    as,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
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

    // bob holds obs.silences.update only in Production: disabled until Production is chosen.
    const update = form.getByRole('checkbox', { name: 'obs.silences.update' });
    await expect(update).toBeDisabled();
    await expect(form.getByRole('checkbox', { name: 'members.list' })).toBeDisabled();
    await form.getByRole('checkbox', { name: 'Production' }).focus();
    await page.keyboard.press('Space');
    await expect(update).toBeEnabled();
    await update.focus();
    await page.keyboard.press('Space');
    await form.getByRole('checkbox', { name: 'obs.silences.list' }).focus();
    await page.keyboard.press('Space');
    await form.getByRole('button', { name: /Add my address/ }).focus();
    await page.keyboard.press('Enter');
    await expect(form.getByLabel('IP range 1')).toHaveValue('127.0.0.1');
    await form.getByRole('button', { name: 'Add range' }).focus();
    await page.keyboard.press('Enter');
    await form.getByLabel('IP range 2').focus();
    await page.keyboard.type('not-an-address');
    await expectAccessible(page, `create dialog, restricted, ${width} px ${colorScheme}`);

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

    const created = (await listKeys(await as('bob'), demo.acme)).find((k) => k.name === name)!;
    expect(created).toMatchObject({
      permissions: ['obs.silences.update', 'obs.silences.list'],
      projectIds: [demo.production],
      allowedIps: ['127.0.0.1/32'],
    });
    const row = page.getByRole('row', { name: new RegExp(name) });
    await expect(row).toContainText('Restricted');
    await expectAccessible(page, `key list with a restricted key, ${width} px ${colorScheme}`);
  });
}
