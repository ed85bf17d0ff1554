import { expect, test } from '../fixtures';
import { expectAccessible } from '../support/axe';
import { consolePages, everyConsolePage, signInAs } from '../support/console';
import { loadDemoSubs } from '../support/subscriptions';

for (const colorScheme of ['light', 'dark'] as const) {
  test(`axe finds nothing on any page or open dialog, ${colorScheme} mode`, async ({ page, demo }) => {
    // Fourteen pages and five dialogs, each analysed twice over: generous on a shared, loaded machine.
    test.setTimeout(300_000);
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await page.goto('/login');
    await expectAccessible(page, 'login');
    await signInAs(page, 'ada@acme.test');
    const pages = consolePages(demo);
    for (const [name, path] of Object.entries(await everyConsolePage(demo))) {
      await page.goto(path);
      await expect(page.locator('main h1').first()).toBeVisible();
      await expect(page.locator('[role="status"][aria-label^="Loading"]')).toHaveCount(0);
      await expectAccessible(page, name);
    }

    await page.goto(pages.apiKeys);
    await page.getByRole('button', { name: 'Create API key' }).first().click();
    await expect(page.getByRole('dialog', { name: 'Create API key' })).toBeVisible();
    await expectAccessible(page, 'create key dialog');
    await page.keyboard.press('Escape');
    await page
      .getByRole('button', { name: /^Revoke / })
      .first()
      .click();
    await expect(page.getByRole('alertdialog')).toBeVisible();
    await expectAccessible(page, 'revoke confirmation');
    await page.keyboard.press('Escape');

    const subs = await loadDemoSubs(demo);
    await page.goto(pages.subscriptions);
    await page.getByRole('button', { name: `Edit ${subs.failing.slug}` }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectAccessible(page, 'subscription dialog');
    await page.keyboard.press('Escape');

    await page.goto(pages.silences);
    await page.getByRole('tab', { name: /Scheduled/ }).click();
    await page.locator('tr[data-silence-id]').first().getByRole('button').click();
    await expect(page.getByRole('dialog', { name: 'Edit silence' })).toBeVisible();
    await expect(page.getByRole('dialog').getByLabel('Comment')).toBeVisible();
    await expectAccessible(page, 'silence dialog');
    await page.getByRole('dialog').getByLabel('Comment').fill('unsaved');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('alertdialog', { name: 'Discard your unsaved changes?' })).toBeVisible();
    await expectAccessible(page, 'discard prompt');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(pages.overview);
    await page.getByRole('button', { name: 'Menu' }).click();
    await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();
    await expectAccessible(page, 'phone menu');
  });
}
