import type { Locator, Page } from '@playwright/test';
import { expect, loadDemo, test } from '../fixtures';
import { consolePages, signInAs } from '../support/console';
import { loadDemoSubs, type DemoSubs } from '../support/subscriptions';

// On a phone, 320×640: the lists are cards that keep every column a user chooses a row by, the
// page never scrolls sideways, and a dialog's actions stay inside the window whatever the form's height.
const PHONE = { width: 320, height: 640 };

let subs: DemoSubs;
test.beforeAll(async () => {
  subs = await loadDemoSubs(await loadDemo());
});

/** Shown, and inside the window sideways: not clipped by a card that scrolls, nor pushed past the edge. */
async function expectOnScreen(page: Page, locator: Locator, what: string) {
  await expect(locator, what).toBeVisible();
  // Scroll the page up or down only: a card that scrolls sideways must not be scrolled for the element's sake,
  // since then a person has to (that was the bug: the comment and the end lay past the card's right edge).
  await locator.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().top - window.innerHeight / 3));
  const box = (await locator.boundingBox())!;
  const width = page.viewportSize()!.width;
  expect(box.x, `${what} starts off screen`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${what} ends off screen (x ${box.x}, width ${box.width})`).toBeLessThanOrEqual(width);
  // Nothing (the card's edge, a sticky column) lies over it: the window shows this element at its centre.
  const hit = await locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 8));
    return !!top && (el === top || el.contains(top));
  });
  expect(hit, `${what} is covered`).toBe(true);
}

async function expectNoSidewaysScroll(page: Page, what: string) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `${what} scrolls sideways`).toBeLessThanOrEqual(PHONE.width);
}

/** Every row action's label on one line: a narrow card wraps whole buttons, never a word inside one ("Revok|e"). */
async function expectActionsWhole(page: Page, what: string) {
  const broken = await page.locator('td[data-actions] button').evaluateAll((buttons) =>
    buttons
      .filter((button) => {
        // A text node set on one line has one box; broken across lines, one per line.
        const texts = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
        for (let text = texts.nextNode(); text; text = texts.nextNode()) {
          const range = document.createRange();
          range.selectNodeContents(text);
          if (range.getClientRects().length > 1) return true;
        }
        return false;
      })
      .map((button) => button.textContent),
  );
  expect(broken, `${what}: actions whose label breaks across lines`).toEqual([]);
}

async function listLoaded(page: Page) {
  await expect(page.locator('main h1').first()).toBeVisible();
  await expect(page.locator('[role="status"][aria-label^="Loading"]')).toHaveCount(0);
}

test('at 320 px a silence shows its matchers, end time, comment and Edit; no sideways scroll', async ({
  page,
  demo,
}) => {
  await page.setViewportSize(PHONE);
  await signInAs(page, 'ada@acme.test');
  await page.goto(consolePages(demo).silences);
  await listLoaded(page);
  await expectNoSidewaysScroll(page, 'the silences page');
  // The demo's active silence: its comment and its end (Dec …, 8:02 AM) are text a person reads on the card.
  const row = page.locator('tr[data-silence-id]').filter({ hasText: 'INC-1234' });
  await expectOnScreen(page, row.getByRole('list', { name: 'Matchers' }), 'matchers');
  await expectOnScreen(page, row.getByText('Checkout latency under investigation (INC-1234)'), 'comment');
  await expectOnScreen(page, row.locator('time').last(), 'end time');
  await expect(row.locator('time').last()).toHaveText(/\d{4}, \d{1,2}:\d{2}/);
  await expectOnScreen(page, row.getByText(/^ends in /), 'time left');
  await expectOnScreen(page, row.locator('td').nth(3), 'author');
  await expectOnScreen(page, row.getByRole('button', { name: /^Edit silence/ }), 'Edit');
  // Every other silence likewise.
  const rows = page.locator('tr[data-silence-id]');
  for (let i = 0; i < (await rows.count()); i++) {
    await expectOnScreen(page, rows.nth(i).locator('td').nth(2), `silence ${i} comment`);
    await expectOnScreen(page, rows.nth(i).locator('time').last(), `silence ${i} end time`);
  }
  await expectNoSidewaysScroll(page, 'the silences page');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: test.info().outputPath('silences-320.png'), fullPage: true });
});

test('at 320 px a key shows its name, prefix, expiry and state; no sideways scroll', async ({ page, demo }) => {
  // Four checks of every row on the first page, each a few round trips to the browser: in CI's full run, where the
  // earlier suites have made keys, the page holds 50 and the checks alone came near the default 30 s.
  test.setTimeout(120_000);
  await page.setViewportSize(PHONE);
  await signInAs(page, 'ada@acme.test');
  await page.goto(consolePages(demo).apiKeys);
  await listLoaded(page);
  await expectNoSidewaysScroll(page, 'the API keys page');
  const keys = page.locator('table tbody tr');
  await expect(keys.first()).toBeVisible();
  for (let i = 0; i < (await keys.count()); i++) {
    const row = keys.nth(i);
    await expectOnScreen(page, row.locator('th[scope="row"]'), `key ${i} name`);
    // Columns: name (the row's th), then key, owner, created, expires, last used.
    await expectOnScreen(page, row.locator('td').nth(0), `key ${i} prefix`);
    await expect(row.locator('td').nth(0)).toHaveText(/svc_\S+…/);
    await expectOnScreen(page, row.locator('td').nth(3), `key ${i} expiry`);
    await expectOnScreen(page, row.getByRole('button', { name: /^Usage of / }), `key ${i} usage`);
  }
  await expectActionsWhole(page, 'the API keys page');
  // State: the expired fixture key says so on its card. It is Acme's oldest, past the first page once the suites
  // have made keys: found by the list's search, as a person would.
  await page.goto(`${consolePages(demo).apiKeys}?q=${encodeURIComponent('e2e expired')}`);
  await listLoaded(page);
  const expired = keys.filter({ hasText: 'e2e expired' });
  await expectOnScreen(page, expired.getByText('Expired', { exact: true }), 'the expired key’s state');
  await expectNoSidewaysScroll(page, 'the API keys page');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: test.info().outputPath('api-keys-320.png'), fullPage: true });
});

test('at 320 px a subscription shows its slug, state, target and health, and every list page stays inside the window', async ({
  page,
  demo,
}) => {
  await page.setViewportSize(PHONE);
  await signInAs(page, 'ada@acme.test');
  await page.goto(consolePages(demo).subscriptions);
  await listLoaded(page);
  const row = page.getByTestId(`subscription-${subs.https.slug}`);
  await expectOnScreen(page, row.getByText(subs.https.slug, { exact: true }), 'slug');
  // Columns: subscription, state, target, batch, concurrency, health.
  await expectOnScreen(page, row.locator('td').nth(1), 'state');
  await expectOnScreen(page, row.locator('td').nth(2), 'target');
  await expectOnScreen(page, row.locator('td').nth(5), 'health');
  await expectOnScreen(page, row.getByRole('button', { name: `Edit ${subs.https.slug}` }), 'Edit');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: test.info().outputPath('subscriptions-320.png'), fullPage: true });
  for (const path of [consolePages(demo).members, consolePages(demo).bots, consolePages(demo).subscriptions]) {
    await page.goto(path);
    await listLoaded(page);
    await expectNoSidewaysScroll(page, path);
    await expectActionsWhole(page, path);
  }
});

/** Scrolls whatever scrolls inside the dialog (the dialog itself or a body within it) to its top or bottom. */
async function scrollDialog(dialog: Locator, end: 'top' | 'bottom') {
  await dialog.evaluate((el, e) => {
    for (const box of [el, ...el.querySelectorAll('*')])
      if (box.scrollHeight > box.clientHeight) box.scrollTop = e === 'top' ? 0 : box.scrollHeight;
  }, end);
}

/** The dialog's action buttons lie wholly inside the window, nothing covers them, at the top and the bottom. */
async function expectActionsOnScreen(page: Page, dialog: Locator, names: string[], what: string) {
  await expect(dialog).toBeVisible();
  for (const end of ['top', 'bottom'] as const) {
    await scrollDialog(dialog, end);
    for (const name of names) {
      const button = dialog.getByRole('button', { name, exact: true });
      await expect(button).toBeVisible();
      const box = (await button.boundingBox())!;
      const where = `${what} (${end}): ${name} at y ${Math.round(box.y)}, height ${Math.round(box.height)}`;
      expect(box.y, where).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height, where).toBeLessThanOrEqual(PHONE.height);
      expect(box.x, where).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, where).toBeLessThanOrEqual(PHONE.width);
      const onTop = await button.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return !!top && (el === top || el.contains(top));
      });
      expect(onTop, `${where}: covered`).toBe(true);
    }
  }
}

test('at 320×640 the subscription editor’s Save stays in the window and works', async ({ page, demo }) => {
  await page.setViewportSize(PHONE);
  await signInAs(page, 'bob@acme.test');
  await page.goto(consolePages(demo).subscriptions);
  await page.getByRole('button', { name: `Edit ${subs.https.slug}` }).click();
  const dialog = page.getByRole('dialog', { name: `Subscription ${subs.https.slug}` });
  await expectActionsOnScreen(page, dialog, ['Cancel', 'Save changes'], 'subscription editor');
  // Scrolled to its end, the last field lies above the footer, not under it.
  await scrollDialog(dialog, 'bottom');
  const lastField = (await dialog.getByLabel('Timeout (seconds)').boundingBox())!;
  const cancel = (await dialog.getByRole('button', { name: 'Cancel', exact: true }).boundingBox())!;
  expect(lastField.y + lastField.height).toBeLessThan(cancel.y);
  await page.screenshot({ path: test.info().outputPath('subscription-editor-320-end.png') });
  await scrollDialog(dialog, 'top');
  await page.screenshot({ path: test.info().outputPath('subscription-editor-320.png') });

  // Clicked where it is, without Playwright scrolling: an out-of-range batch size is stopped at its field (and
  // nothing is saved), proof that the click reached the form.
  const patches: string[] = [];
  page.on('request', (req) => req.method() === 'PATCH' && patches.push(req.url()));
  await dialog.getByLabel('Batch size').fill('0');
  await scrollDialog(dialog, 'top');
  const save = dialog.getByRole('button', { name: 'Save changes', exact: true });
  const box = (await save.boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(dialog.getByLabel('Batch size')).toHaveAttribute('aria-invalid', 'true');
  expect(patches).toEqual([]);
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
  await page.getByRole('button', { name: 'Discard changes' }).click();
  await expect(dialog).toBeHidden();
});

test('at 320×640 the silence editor’s and the new key’s actions stay in the window', async ({ page, demo }) => {
  await page.setViewportSize(PHONE);
  await signInAs(page, 'ada@acme.test');
  await page.goto(consolePages(demo).silences);
  await page.getByRole('button', { name: 'New silence' }).click();
  await expectActionsOnScreen(page, page.getByRole('dialog'), ['Cancel', 'Create silence'], 'new silence');
  await page.screenshot({ path: test.info().outputPath('new-silence-320.png') });
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();

  await page
    .locator('tr[data-silence-id]')
    .filter({ hasText: 'INC-1234' })
    .getByRole('button', { name: /^Edit silence/ })
    .click();
  await expectActionsOnScreen(page, page.getByRole('dialog'), ['Cancel', 'Save changes'], 'silence editor');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();

  await page.goto(consolePages(demo).apiKeys);
  await page.getByRole('button', { name: 'Create API key' }).click();
  await expectActionsOnScreen(page, page.getByRole('dialog'), ['Cancel', 'Create key'], 'new key');
});

test('at 1280 px the lists are tables with a header row', async ({ page, demo }) => {
  await signInAs(page, 'ada@acme.test');
  for (const [path, shot] of [
    [consolePages(demo).silences, 'silences-1280.png'],
    [consolePages(demo).apiKeys, 'api-keys-1280.png'],
    [consolePages(demo).subscriptions, 'subscriptions-1280.png'],
  ]) {
    await page.goto(path);
    await listLoaded(page);
    await expect(page.locator('thead th').first()).toBeVisible();
    expect(await page.locator('thead').evaluate((el) => getComputedStyle(el).display)).toBe('table-header-group');
    expect(
      await page
        .locator('tbody tr')
        .first()
        .evaluate((el) => getComputedStyle(el).display),
    ).toBe('table-row');
    await page.screenshot({ path: test.info().outputPath(shot) });
  }
  await page.goto(consolePages(demo).subscriptions);
  await page.getByRole('button', { name: `Edit ${subs.https.slug}` }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('subscription-editor-1280.png') });
});
