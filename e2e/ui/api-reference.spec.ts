import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { expectAccessible } from '../support/axe';
import { consolePages, signInAs } from '../support/console';
import { baseURL } from '../support/env';

const REDOC = '/api-reference/redoc-';

/** Every request the page makes that is not to this server (data: and blob: are the page's own). */
function outsideRequests(page: Page): string[] {
  const outside: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(`${baseURL}/`) && !/^(data|blob):/.test(url)) outside.push(url);
  });
  return outside;
}

/** The operation's section as Redoc draws it (`tag/Silences/operation/changeASilence`), found by its summary. */
const operation = (page: Page, summary: string) =>
  page.locator('[data-section-id^="tag/"][data-section-id*="/operation/"]').filter({
    has: page.getByRole('heading', { name: summary }),
  });

/**
 * What axe checks of the page: the console's own parts, Redoc's menu and one operation's section. Redoc draws every
 * operation at once with the same components (some 37,000 elements): axe over all of it takes 2.5 minutes on an idle
 * machine and four times that in CI, and finds nothing one section would not.
 */
async function checkedParts(page: Page, summary: string): Promise<string[]> {
  const section = await operation(page, summary).getAttribute('data-section-id');
  return ['header', 'main > div:first-child', '.menu-content', `[data-section-id="${section}"]`];
}

/** The rules about the whole page, which a check of its parts leaves out: over all of it, as they are cheap. */
async function expectWholePageSound(page: Page, what: string) {
  const rules = [
    'document-title',
    'html-has-lang',
    'landmark-one-main',
    'page-has-heading-one',
    'meta-viewport',
    // Redoc's h5 under an h2 skipped levels (Lighthouse's accessibility audit counts it).
    'heading-order',
  ];
  const results = await new AxeBuilder({ page }).withRules(rules).analyze();
  expect(
    results.violations.map((v) => v.id),
    what,
  ).toEqual([]);
}

test('the API reference opens from the navigation by keyboard, shows the silence PATCH, and loads nothing from outside', async ({
  page,
  demo,
}) => {
  test.setTimeout(300_000);
  const outside = outsideRequests(page);
  const scripts: string[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.push(new URL(response.url()).pathname);
  });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
  await signInAs(page, 'ada@acme.test');
  await page.goto(consolePages(demo).overview);
  await expect(page.locator('main h1').first()).toBeVisible();
  // Redoc's script is this page's alone: the other pages never ask for it.
  expect(scripts.filter((s) => s.startsWith(REDOC))).toEqual([]);

  const link = page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'API reference' });
  await link.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/api-reference$/);
  await expect(page.getByRole('heading', { level: 1, name: 'API reference' })).toBeVisible();
  await expect(page.getByRole('link', { name: '/v1/openapi.json' })).toHaveAttribute('href', '/v1/openapi.json');

  // A real operation, rendered from /v1/openapi.json: the silence PATCH, its method and path.
  const patch = operation(page, 'Change a silence');
  await expect(patch).toHaveCount(1, { timeout: 60_000 });
  await expect(patch).toContainText('/v1/organizations/{orgId}/projects/{projectId}/obs/silences/{silenceId}');
  await expect(patch.getByText('patch', { exact: true }).first()).toBeAttached();
  await expect(patch).toContainText('If-Match');
  expect(scripts.filter((s) => s.startsWith(REDOC))).toHaveLength(1);

  // By keyboard: from the way back, Tab reaches Redoc's search and its menu; Enter opens Silences, then the PATCH.
  await page.getByRole('link', { name: 'Back to the console' }).focus();
  const search = page.getByPlaceholder('Search...');
  for (let i = 0; i < 6 && !(await search.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press('Tab');
  }
  await expect(search).toBeFocused();
  const silences = page.getByRole('menuitem', { name: 'Silences', exact: true });
  await silences.focus();
  await page.keyboard.press('Enter');
  const item = page.getByRole('menuitem', { name: 'Change a silence', exact: true });
  await expect(item).toBeVisible();
  await item.focus();
  await page.keyboard.press('Enter');
  await expect(patch.getByRole('heading', { name: 'Change a silence' })).toBeInViewport();

  await expectAccessible(page, 'API reference, 1280 px light', await checkedParts(page, 'Change a silence'));
  await expectWholePageSound(page, 'API reference, 1280 px light');
  await page.screenshot({ path: 'test-results/screens/api-reference-1280-light.png' });

  // On a phone, in dark mode: no sideways scroll, the operation still there, and axe clean.
  await page.setViewportSize({ width: 320, height: 640 });
  await page.emulateMedia({ colorScheme: 'dark', reducedMotion: 'reduce' });
  await page.goto('/api-reference');
  await expect(operation(page, 'Change a silence')).toHaveCount(1, { timeout: 60_000 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  // The menu hides behind a round toggle: Tab reaches it, Enter opens the menu with focus in it.
  const toggle = page.getByRole('button', { name: 'Menu of operations' });
  await page.getByRole('link', { name: 'Back to the console' }).focus();
  for (let i = 0; i < 8 && !(await toggle.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press('Tab');
  }
  await expect(toggle).toBeFocused();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByPlaceholder('Search...')).toBeFocused();
  await page.getByRole('menuitem', { name: 'Silences', exact: true }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('menuitem', { name: 'Change a silence', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(operation(page, 'Change a silence').getByRole('heading', { name: 'Change a silence' })).toBeInViewport();
  await expectAccessible(page, 'API reference, 320 px dark', await checkedParts(page, 'Change a silence'));
  await page.screenshot({ path: 'test-results/screens/api-reference-320-dark.png' });

  expect(outside).toEqual([]);
});
