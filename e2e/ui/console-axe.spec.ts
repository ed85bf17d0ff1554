import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { consolePages, signInAs } from '../support/console';
import { loadDemoSubs } from '../support/subscriptions';

const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

async function expectNoViolations(page: Page, what: string) {
  // Toasts fade in and out; they are checked while present in the flows that make them.
  const results = await new AxeBuilder({ page }).withTags(WCAG_21_AA).exclude('[data-sonner-toaster]').analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(summary, what).toEqual([]);
}

for (const colorScheme of ['light', 'dark'] as const) {
  test(`axe finds nothing on any page or open dialog, ${colorScheme} mode`, async ({ page, demo }) => {
    // Eight pages and five dialogs, each analysed twice over: generous on a shared, loaded machine.
    test.setTimeout(240_000);
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await page.goto('/login');
    await expectNoViolations(page, 'login');
    await signInAs(page, 'ada@acme.test');
    const pages = consolePages(demo);
    for (const [name, path] of Object.entries(pages)) {
      await page.goto(path);
      await expect(page.locator('main h1').first()).toBeVisible();
      await expect(page.locator('[role="status"][aria-label^="Loading"]')).toHaveCount(0);
      await expectNoViolations(page, name);
    }

    await page.goto(pages.apiKeys);
    await page.getByRole('button', { name: 'Create API key' }).first().click();
    await expect(page.getByRole('dialog', { name: 'Create API key' })).toBeVisible();
    await expectNoViolations(page, 'create key dialog');
    await page.keyboard.press('Escape');
    await page
      .getByRole('button', { name: /^Revoke / })
      .first()
      .click();
    await expect(page.getByRole('alertdialog')).toBeVisible();
    await expectNoViolations(page, 'revoke confirmation');
    await page.keyboard.press('Escape');

    const subs = await loadDemoSubs(demo);
    await page.goto(pages.subscriptions);
    await page.getByRole('button', { name: `Edit ${subs.failing.slug}` }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectNoViolations(page, 'subscription dialog');
    await page.keyboard.press('Escape');

    await page.goto(pages.silences);
    await page.getByRole('tab', { name: /Scheduled/ }).click();
    await page.locator('tr[data-silence-id]').first().getByRole('button').click();
    await expect(page.getByRole('dialog', { name: 'Edit silence' })).toBeVisible();
    await expect(page.getByRole('dialog').getByLabel('Comment')).toBeVisible();
    await expectNoViolations(page, 'silence dialog');
    await page.getByRole('dialog').getByLabel('Comment').fill('unsaved');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('alertdialog', { name: 'Discard your unsaved changes?' })).toBeVisible();
    await expectNoViolations(page, 'discard prompt');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(pages.overview);
    await page.getByRole('button', { name: 'Menu' }).click();
    await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();
    await expectNoViolations(page, 'phone menu');
  });
}
