import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, test, type Demo } from '../fixtures';
import { createKey } from '../support/api-keys';
import { consolePages, everyConsolePage, signInAs } from '../support/console';
import { leak, postReport, serverScannerKey } from '../support/secret-scanning';

/** The console's pages whose lists are read on the server, and where each is. */
const SERVER_READ_PAGES = [
  'overview',
  'apiKeys',
  'members',
  'bots',
  'settings',
  'queues',
  'queue',
  'subscription',
  'subscriptions',
  'silences',
  'alerts',
  'audit',
] as const;
const serverReadPages = async (demo: Demo) => ({
  ...(await everyConsolePage(demo)),
  audit: `/orgs/${demo.acme}/audit`,
});

/** The page never scrolls sideways, and every row action lies inside the window without scrolling. */
async function expectReflow(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator('main h1').first()).toBeVisible();
  await expect(page.locator('[role="status"][aria-label^="Loading"]')).toHaveCount(0);
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${path} scrolls sideways`).toBeLessThanOrEqual(innerWidth);
  const actions = page.locator('td button');
  for (let i = 0; i < (await actions.count()); i++) {
    const box = (await actions.nth(i).boundingBox())!;
    expect(box.x, `${path}: action ${i} starts off screen`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `${path}: action ${i} ends off screen`).toBeLessThanOrEqual(innerWidth);
  }
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 320, height: 640 },
]) {
  test(`at ${viewport.width}×${viewport.height} no page scrolls sideways and every row action is on screen`, async ({
    page,
    demo,
    as,
  }) => {
    // Every console page in turn: about 25 s on a machine running the other suites beside this one.
    test.setTimeout(90_000);
    // A long unbroken name on the overview's expiring list must truncate, not widen its card.
    await createKey(await as('bob'), demo.acme, { name: `expiring-${'x'.repeat(60)}`, expiresInDays: 1 });
    await page.setViewportSize(viewport);
    await signInAs(page, 'ada@acme.test');
    for (const path of Object.values(await everyConsolePage(demo))) await expectReflow(page, path);
    // Row actions still work from there: the sticky column's button opens its dialog.
    await page.goto(consolePages(demo).subscriptions);
    await page
      .getByRole('button', { name: /^Edit qsb_/ })
      .first()
      .click();
    await expect(page.getByRole('dialog', { name: /^Subscription / })).toBeVisible();
  });
}

test('at 1280×800 every list shows all its columns: no table scrolls inside its card', async ({ page, demo }) => {
  // Every list page in turn: 22 s beside the other suites.
  test.setTimeout(90_000);
  await signInAs(page, 'ada@acme.test');
  let tables = 0;
  for (const path of Object.values(await everyConsolePage(demo))) {
    await page.goto(path);
    await expect(page.locator('main h1').first()).toBeVisible();
    await expect(page.locator('[role="status"][aria-label^="Loading"]')).toHaveCount(0);
    const regions = page.locator('[role="region"]:has(> table)');
    for (let i = 0; i < (await regions.count()); i++) {
      const { scrollWidth, clientWidth, label } = await regions
        .nth(i)
        .evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth, label: el.ariaLabel }));
      expect(scrollWidth, `${path}: "${label}" scrolls sideways`).toBeLessThanOrEqual(clientWidth);
      tables++;
    }
  }
  expect(tables).toBeGreaterThanOrEqual(4);
});

test('on a phone the navigation is a menu; following a link closes it', async ({ page, demo }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAs(page, 'ada@acme.test');
  await expect(page.getByRole('navigation', { name: 'Console' })).toBeHidden();
  const menu = page.getByRole('button', { name: 'Menu' });
  await menu.click();
  const panel = page.getByRole('dialog', { name: 'Menu' });
  await panel.getByRole('link', { name: 'Members' }).click();
  await expect(page).toHaveURL(`/orgs/${demo.acme}/members`);
  await expect(panel).toBeHidden();
  await expect(page.getByRole('heading', { level: 1, name: 'Members' })).toBeVisible();
  await menu.click();
  await page.keyboard.press('Escape');
  await expect(menu).toBeFocused();
});

test('dead ends: unknown pages are styled with a way back, an unknown project is only "Not found", a favicon', async ({
  page,
  demo,
  request,
}) => {
  await signInAs(page, 'ada@acme.test');
  await page.goto(`/orgs/${demo.acme}/no-such-page`);
  await expect(page.getByRole('heading', { level: 1, name: 'Not found' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Console' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to the overview' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();

  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { level: 1, name: 'Not found' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to the console' })).toBeVisible();

  for (const section of ['subscriptions', 'silences']) {
    await page.goto(`/orgs/${demo.acme}/projects/${randomUUID()}/${section}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Not found' })).toBeVisible();
    await expect(page.getByText(/Read-only|needs the/)).toHaveCount(0);
  }
  const icon = await request.get('/icon.svg');
  expect(icon.status()).toBe(200);
  expect(icon.headers()['content-type']).toContain('image/svg+xml');
  await page.goto(`/orgs/${demo.acme}`);
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', /icon\.svg/);
});

test('the overview shows what needs attention, each linking to its page', async ({ page, demo }) => {
  await signInAs(page, 'ada@acme.test');
  await expect(page).toHaveURL(`/orgs/${demo.acme}`);
  // Each project's failing subscriptions and dead letters, a word and a figure, as the API counts them.
  type Health = { projectId: string; failing: number; deadLetters: number; deadLetterSubscription: { id: string } };
  const health = (await (await page.request.get(`/v1/organizations/${demo.acme}/subscription-health`)).json()) as {
    items: Health[];
  };
  const inProject = (id: string) => health.items.find((h) => h.projectId === id)!;
  const production = page.getByRole('region', { name: 'Subscriptions in Production' });
  const failing = inProject(demo.production).failing;
  expect(failing, 'the demo has a failing subscription').toBeGreaterThan(0);
  await expect(production.getByRole('link', { name: /failing subscriptions?$/ })).toHaveText(
    new RegExp(`^${failing} failing subscriptions?$`),
  );
  // Staging holds the seeded dead letters: the figure links to the subscription holding the most.
  const staging = page.getByRole('region', { name: 'Subscriptions in Staging' });
  const dead = inProject(demo.staging);
  expect(dead.deadLetters, 'the seed left dead letters in Staging').toBeGreaterThan(0);
  const deadLink = staging.getByRole('link', { name: /dead letters?$/ });
  await expect(deadLink).toHaveText(new RegExp(`^${dead.deadLetters} dead letters?$`));
  await page.screenshot({ path: 'test-results/screens/overview-1280.png', fullPage: true });
  await page.setViewportSize({ width: 320, height: 720 });
  await staging.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screens/overview-subscriptions-320.png' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await production.getByRole('link', { name: /failing subscriptions?$/ }).click();
  await expect(page).toHaveURL(`/orgs/${demo.acme}/projects/${demo.production}/subscriptions`);
  await page.goBack();
  await deadLink.click();
  await expect(page).toHaveURL(
    `/orgs/${demo.acme}/projects/${demo.staging}/subscriptions/${dead.deadLetterSubscription.id}#dead-letters-title`,
  );
  await expect(page.getByRole('heading', { level: 2, name: /^Dead letters/ })).toBeVisible();
  await page.goBack();
  const silences = page.getByRole('region', { name: 'Silences in Production' });
  await expect(silences).toContainText(/\d+ active/);
  await expect(silences).toContainText(/\d+ scheduled/);
  // Staging has alerting off: no silences panel.
  await expect(page.getByRole('region', { name: 'Silences in Staging' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'API keys expiring within 7 days' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Recent audit events' })).toBeVisible();
  await silences.getByRole('link', { name: /Open/ }).click();
  await expect(page).toHaveURL(`/orgs/${demo.acme}/projects/${demo.production}/silences`);
});

test('a member who may not read the audit log gets no audit panel on the overview', async ({ page, demo }) => {
  await signInAs(page, 'cy@acme.test');
  await expect(page).toHaveURL(`/orgs/${demo.acme}`);
  await expect(page.getByRole('region', { name: 'Silences in Production' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'API keys expiring within 7 days' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Recent audit events' })).toHaveCount(0);
  await expect(page.getByText('auditLog.read')).toHaveCount(0);
});

test('policy bindings show their project on the members and bots pages', async ({ page, demo }) => {
  await signInAs(page, 'ada@acme.test');
  await page.goto(`/orgs/${demo.acme}/members`);
  const bob = page.getByRole('row', { name: /Bob Builder/ });
  await expect(bob).toContainText('BasicAccess');
  await expect(bob).toContainText('QueuesEditor in Production');
  await expect(bob).toContainText('SilencesEditor in Production');
  await expect(page.getByRole('row', { name: /Ada Lovelace/ })).not.toContainText(/ in (Production|Staging)/);
  await page.goto(`/orgs/${demo.acme}/bots`);
  await expect(page.getByRole('row', { name: /deploy-bot/ })).toContainText('QueuesEditor in Production');
});

test('a read-only user sees a banner, View instead of Edit, and authors by name', async ({ page, demo }) => {
  await signInAs(page, 'cy@acme.test');
  await page.goto(consolePages(demo).silences);
  await expect(page.getByRole('note')).toContainText('obs.silences.update');
  const rows = page.locator('tr[data-silence-id]');
  await expect(rows.first()).toBeVisible();
  await expect(page.getByRole('button', { name: /^Edit silence/ })).toHaveCount(0);
  // The demo's active silence (other specs create silences too, so it need not be the first row).
  const demoRow = rows.filter({ hasText: 'INC-1234' });
  await expect(demoRow.getByRole('button', { name: /^View silence/ })).toBeVisible();
  await expect(demoRow).toContainText('Ada Lovelace');
  await expect(page.getByText(/User [0-9a-f]{8}/)).toHaveCount(0);
});

test('tab counts come from the server, and each tab pages its own state', async ({ page, demo, as }) => {
  const cy = await as('cy');
  const counts = (await (
    await cy.get(`/v1/organizations/${demo.acme}/projects/${demo.production}/obs/silences/counts`)
  ).json()) as Record<string, number>;
  await signInAs(page, 'cy@acme.test');
  await page.goto(consolePages(demo).silences);
  for (const [tab, state] of [
    ['Active', 'active'],
    ['Scheduled', 'scheduled'],
    ['Expired', 'expired'],
  ] as const) {
    await expect(page.getByRole('tab', { name: new RegExp(`^${tab}`) })).toHaveText(`${tab}${counts[state]}`);
  }
});

// Panels that arrive with data or permissions must not push the page down: Lighthouse counted 0.146 of layout shift
// on the audit log (the Hash chain panel) and 0.10 on members (the second-factor policy) before they held their
// places from the first paint. A phone's width and a 4× slower CPU, as Lighthouse's mobile preset.
for (const email of ['ada@acme.test', 'cy@acme.test']) {
  test(`no console page moves while it loads (${email.split('@')[0]}, 412 px, 4× CPU)`, async ({ page, demo, as }) => {
    test.setTimeout(90_000);
    // A leaked key, so the keys page has a notice to show (it arrived on its own and pushed the filters down).
    const leaked = await createKey(await as('ada'), demo.acme, { name: `layout-leak-${randomUUID()}` });
    const report = await postReport(
      JSON.stringify([leak(leaked.secret, `https://example.test/${leaked.apiKey.prefix}.env`)]),
      serverScannerKey(),
    );
    expect(report.status, report.text).toBe(200);
    await page.setViewportSize({ width: 412, height: 823 });
    await page.addInitScript(() => {
      const w = window as unknown as { shifted: number; moved: string[] };
      w.shifted = 0;
      w.moved = [];
      type Shift = { value: number; hadRecentInput: boolean; sources: { node?: Node }[] };
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as unknown as Shift[]) {
          if (entry.hadRecentInput) continue;
          w.shifted += entry.value;
          // What moved, for the failure message.
          for (const { node } of entry.sources)
            w.moved.push(
              `${entry.value.toFixed(3)} ${(node as Element | undefined)?.outerHTML?.slice(0, 120) ?? node?.nodeName}`,
            );
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await signInAs(page, email);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const pages = await serverReadPages(demo);
    for (const name of SERVER_READ_PAGES) {
      await page.goto(pages[name]);
      await expect(page.locator('main h1').first()).toBeVisible();
      await expect(page.locator('[role="status"][aria-label^="Loading"]')).toHaveCount(0, { timeout: 20_000 });
      await page.waitForLoadState('networkidle');
      const { shifted, moved } = await page.evaluate(() => {
        const w = window as unknown as { shifted: number; moved: string[] };
        return { shifted: w.shifted, moved: w.moved };
      });
      expect(shifted, `${name}: layout shift while loading; moved: ${moved.join('\n')}`).toBeLessThan(0.05);
    }
  });
}

test('every member sees the second-factor policy; only an admin can switch it', async ({ page, demo }) => {
  await signInAs(page, 'cy@acme.test');
  await page.goto(consolePages(demo).settings);
  const policy = page.getByRole('switch', { name: 'Require a second factor' });
  await expect(policy).toBeVisible();
  await expect(policy).toBeDisabled();
  await expect(policy).toHaveAccessibleDescription(/Only an organization admin can change it\.$/);
});

test("the first HTML already holds the organization's navigation, project panels and first lists, read with the viewer's own access", async ({
  page,
  demo,
}) => {
  await signInAs(page, 'ada@acme.test');
  const html = await (await page.request.get(`/orgs/${demo.acme}`)).text();
  // Server-rendered from the projects read through their /v1 handler, not after hydration.
  expect(html).toContain('aria-label="Subscriptions in Production"');
  expect(html).toContain('aria-label="Silences in Production"');
  // The silences page's tab counts come with it too.
  const silences = await (await page.request.get(consolePages(demo).silences)).text();
  expect(silences).toMatch(/Active<!-- -->?<span[^>]*>\d+<\/span>|Active<span[^>]*>\d+<\/span>/);
  // So do the first pages of the bots and members lists, dates in UTC until the browser's own zone takes over.
  const bots = await (await page.request.get(`/orgs/${demo.acme}/bots`)).text();
  expect(bots).toMatch(/<th[^>]*>deploy-bot<\/th>/);
  expect(bots).toMatch(/<time dateTime="[^"]+">[A-Z][a-z]{2} \d{1,2}, \d{4}<\/time>/);
  const members = await (await page.request.get(`/orgs/${demo.acme}/members`)).text();
  expect(members).toContain('bob@acme.test');
  // And the keys, subscriptions, silences (the Active tab) and audit log: rows, not skeletons.
  const keys = await (await page.request.get(consolePages(demo).apiKeys)).text();
  expect(keys).toMatch(/<th scope="row"[^>]*><div[^>]*>[^<]+/);
  expect(keys).not.toContain('aria-label="Loading API keys"');
  const subscriptions = await (await page.request.get(consolePages(demo).subscriptions)).text();
  expect(subscriptions).toMatch(/qsb_[A-Za-z0-9]+/);
  expect(subscriptions).not.toContain('aria-label="Loading subscriptions"');
  expect(silences).toContain('Checkout latency under investigation');
  expect(silences).not.toContain('aria-label="Loading silences"');
  const audit = await (await page.request.get(`/orgs/${demo.acme}/audit`)).text();
  expect(audit).toContain('Audit events, newest first');
  expect(html).not.toContain('Loading…');

  // Someone outside Acme gets none of its data in the HTML: the same checks as the API answer 404.
  await page.context().clearCookies();
  await signInAs(page, 'gil@globex.test');
  const outside = await (await page.request.get(`/orgs/${demo.acme}`)).text();
  expect(outside).not.toContain('in Production');
  expect(outside).not.toContain('Staging');
  expect(await (await page.request.get(`/orgs/${demo.acme}/bots`)).text()).not.toContain('deploy-bot');
  expect(await (await page.request.get(`/orgs/${demo.acme}/members`)).text()).not.toContain('bob@acme.test');
  expect(await (await page.request.get(consolePages(demo).silences)).text()).not.toContain('Checkout latency');
  expect(await (await page.request.get(`/orgs/${demo.acme}/audit`)).text()).not.toContain('Audit events, newest first');
});

// The server writes dates in UTC and relative times against its own clock; the hydrating browser must produce the
// same text whatever its zone and clock, or React discards the server's HTML (a recoverable error and a second
// render of the page). Then the reader's zone takes over. Time zones 14 hours east and 10 hours west of UTC; in the
// second, a browser clock 3 minutes ahead of the server's (the data is then older than the cache's 15 s, so the
// browser asks again after hydrating: only the first checks that nothing is asked for twice).
for (const { timezoneId, ahead } of [
  { timezoneId: 'Pacific/Kiritimati', ahead: 0 },
  { timezoneId: 'Pacific/Honolulu', ahead: 3 * 60_000 },
]) {
  test(`server-rendered lists hydrate without a mismatch in ${timezoneId}, ${ahead / 60_000} minutes ahead, then show its times`, async ({
    browser,
    demo,
  }) => {
    test.setTimeout(90_000);
    const context = await browser.newContext({ timezoneId });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    // Errors the page reports; a failed request's line is the network's, checked below.
    page.on(
      'console',
      (msg) => msg.type() === 'error' && !msg.text().startsWith('Failed to load resource') && errors.push(msg.text()),
    );
    // The clock as the page reads it (Playwright's own clock also fakes the timers, which changes how React
    // schedules hydration).
    await page.addInitScript((ms) => {
      const now = Date.now.bind(Date);
      Date.now = () => now() + ms;
    }, ahead);
    await signInAs(page, 'ada@acme.test');
    // A phone's slower CPU, as Lighthouse's: hydration then yields more often between its parts.
    await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const pages = await serverReadPages(demo);
    for (const name of SERVER_READ_PAGES) {
      // The previous page's refresh timers (a queue's backlogs every 5 s) must not fire into this page's count.
      await page.goto('about:blank');
      const asked: string[] = [];
      const listen = (req: { url(): string }) => req.url().includes('/v1/') && asked.push(req.url());
      page.on('request', listen);
      await page.goto(pages[name]);
      await page.waitForLoadState('networkidle');
      page.off('request', listen);
      expect(errors, `${name}: errors while hydrating`).toEqual([]);
      // What the page shows was read on the server; the browser asks only for what no list holds (the bell's
      // count, the latest log verification).
      // An alert's silences are named by reading each one, which no alert list holds.
      const again = asked.filter(
        (url) => !/\/notifications|\/verifications\/latest|\/bots\?limit=100$|\/obs\/silences\/[0-9a-f-]+$/.test(url),
      );
      if (!ahead) expect(again, `${name}: asked for again after the server read it`).toEqual([]);
    }
    // After hydration, a silence's start reads in the browser's zone (its title keeps the UTC instant).
    await page.goto(pages.silences);
    const start = page.locator('td[data-label="Start – end"] time').first();
    await expect(start).toBeVisible();
    const { iso, local } = await start.evaluate((el) => {
      const at = new Date(el.getAttribute('datetime')!);
      const hour = at.getHours() % 12 || 12;
      return {
        iso: el.getAttribute('datetime')!,
        local: `${hour}:${String(at.getMinutes()).padStart(2, '0')} ${at.getHours() < 12 ? 'AM' : 'PM'}`,
      };
    });
    // The zone takes over in an effect after hydration, which a throttled CPU may not have run yet: wait for it.
    await expect(start, iso).toContainText(local);
    await context.close();
  });
}
