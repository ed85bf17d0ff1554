import type { APIRequestContext, Page, Route } from '@playwright/test';
import { expect, loadDemo, sessionFor, test } from '../fixtures';
import { createKey } from '../support/api-keys';
import { readListsInBrowser, signInAs } from '../support/console';
import { productionSilences } from '../support/silences';

test('bob finds one key by a part of its name or its prefix; the search stays in the URL', async ({
  page,
  bob,
  demo,
}) => {
  const mark = crypto.randomUUID().slice(0, 8);
  const { apiKey } = await createKey(bob, demo.acme, { name: `Needle ${mark} deploys` });
  await createKey(bob, demo.acme, { name: `haystack ${mark.slice(0, 4)}` });
  await signInAs(page, 'bob');
  await page.goto(`/orgs/${demo.acme}/api-keys`);
  const search = page.getByRole('searchbox', { name: 'Search keys' });
  await search.fill(`needle ${mark}`);
  await expect(page).toHaveURL(new RegExp(`[?&]q=needle(\\+|%20)${mark}`));
  const rows = page.getByRole('table', { name: 'API keys' }).locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(apiKey.prefix);
  await page.screenshot({ path: 'test-results/screens/api-keys-search.png' });

  await page.reload();
  await expect(search).toHaveValue(`needle ${mark}`);
  await expect(rows).toHaveCount(1);
  await search.fill(apiKey.prefix);
  await search.press('Enter');
  await expect(page).toHaveURL(new RegExp(`[?&]q=${apiKey.prefix}`));
  await expect(page.getByRole('row', { name: new RegExp(`Needle ${mark}`) })).toBeVisible();

  await search.fill(`no such key ${mark}`);
  await expect(page.getByText(`No key's name contains “no such key ${mark}”`)).toBeVisible();
  await page.setViewportSize({ width: 320, height: 720 });
  await search.fill(`needle ${mark}`);
  await expect(rows).toHaveCount(1);
  await page.screenshot({ path: 'test-results/screens/api-keys-search-320.png', fullPage: true });
});

test('bob finds a silence by a matcher value, in the active tab, and the search stays in the URL', async ({
  page,
  bob,
  demo,
}) => {
  const mark = crypto.randomUUID().slice(0, 8);
  const res = await bob.post(productionSilences(demo), {
    data: {
      comment: `Rollout ${mark}`,
      matchers: [{ label: 'service', op: '=', value: `payments-${mark}` }],
      endsAt: new Date(Date.now() + 3_600_000).toISOString(),
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  await signInAs(page, 'bob');
  await page.goto(`/orgs/${demo.acme}/projects/${demo.production}/silences`);
  const search = page.getByRole('searchbox', { name: 'Search silences' });
  await search.fill(`PAYMENTS-${mark}`);
  await expect(page).toHaveURL(new RegExp(`[?&]q=PAYMENTS-${mark}`));
  const rows = page.getByRole('table', { name: 'Active silences' }).locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`Rollout ${mark}`);
  await page.screenshot({ path: 'test-results/screens/silences-search.png' });
  await page.setViewportSize({ width: 320, height: 720 });
  await page.reload();
  await expect(search).toHaveValue(`PAYMENTS-${mark}`);
  await expect(rows).toHaveCount(1);
  await page.screenshot({ path: 'test-results/screens/silences-search-320.png', fullPage: true });
});

/** A random letter of an alphabet no other test names keys in (nor does a key prefix start with). */
const letterOf = (first: number, count: number) => String.fromCodePoint(first + Math.floor(Math.random() * count));

// One key that matches, made before 260 that do not: the first page of a short search (250 keys examined, newest
// first) then holds no item and a cursor, and the match is on the second.
test.describe('a search of one or two characters that the first stretch of keys does not answer', () => {
  test.describe.configure({ mode: 'serial' });
  // Two characters, a search too short for the indexes: a Greek letter then a Cyrillic one.
  const needle = letterOf(0x3b1, 25) + letterOf(0x430, 32);
  // Two Cyrillic letters, held by one key older than the 260 and one newer.
  const twin = letterOf(0x430, 32) + letterOf(0x430, 32);
  const seeded: string[] = [];
  let bob: APIRequestContext;
  let orgId: string;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    bob = await sessionFor('bob');
    orgId = (await loadDemo()).acme;
    for (const name of [`Twin old ${twin}`, `Needle ${needle}`])
      seeded.push((await createKey(bob, orgId, { name })).apiKey.id);
    for (let batch = 0; batch < 26; batch++) {
      const made = await Promise.all(
        Array.from({ length: 10 }, (_, i) => createKey(bob, orgId, { name: `haystack ${batch * 10 + i}` })),
      );
      seeded.push(...made.map((m) => m.apiKey.id));
    }
    seeded.push((await createKey(bob, orgId, { name: `Twin new ${twin}` })).apiKey.id);
  });

  // Other lists of bob's keys read the newest 100: his many keys end with this file.
  test.afterAll(async () => {
    test.setTimeout(120_000);
    for (let i = 0; i < seeded.length; i += 10)
      await Promise.all(seeded.slice(i, i + 10).map((id) => bob.delete(`/v1/organizations/${orgId}/api-keys/${id}`)));
    await bob.dispose();
  });

  /** Opens the key list and routes its searches for `q` through `onPage` (which must continue or fulfil them). */
  async function openKeys(page: Page, q: string, onPage: (route: Route, cursor: string | null) => Promise<void>) {
    await page.route(
      (url) => url.pathname === `/v1/organizations/${orgId}/api-keys` && url.searchParams.get('q') === q,
      (route) => onPage(route, new URL(route.request().url()).searchParams.get('cursor')),
    );
    await signInAs(page, 'bob');
    await page.goto(`/orgs/${orgId}/api-keys`);
    await page.getByRole('searchbox', { name: 'Search keys' }).fill(q);
  }

  /**
   * Opens the search for `q` with its first request for a next page held until `release`: a state the list is in
   * while more remains to search. Notes whether "no match" was on screen whenever the list asked for more.
   */
  async function openHeld(page: Page, q: string) {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const claimedNoMatch: boolean[] = [];
    await openKeys(page, q, async (route, cursor) => {
      if (cursor) {
        claimedNoMatch.push(await noMatch(page, q).isVisible());
        await held;
      }
      await route.continue();
    });
    return { release, claimedNoMatch };
  }

  const noMatch = (page: Page, q: string) => page.getByText(`No key's name contains “${q}”`);
  const announced = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text });

  test('the list searches on by itself and shows the match, never "no match" while a cursor remains', async ({
    page,
  }) => {
    // A request with a cursor is sent while the pages so far left more to search: "no match" would be false.
    const { release, claimedNoMatch } = await openHeld(page, needle);
    await expect(page.getByRole('heading', { name: 'Searching…' })).toBeVisible();
    await expect(page.getByText('No match in the 250 newest keys so far.', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Search older keys' })).toBeDisabled();
    await expect(announced(page, 'Searching keys…')).toHaveCount(1);
    await page.screenshot({ path: 'test-results/screens/api-keys-search-more.png' });
    await page.setViewportSize({ width: 320, height: 720 });
    await page.screenshot({ path: 'test-results/screens/api-keys-search-more-320.png', fullPage: true });
    release();

    const rows = page.getByRole('table', { name: 'API keys' }).locator('tbody tr');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(`Needle ${needle}`);
    await expect(announced(page, 'Search done: 1 match.')).toHaveCount(1);
    expect(claimedNoMatch).toEqual([false]);
  });

  test('a match among the newest keys shows at once, with the search going on beneath it', async ({ page }) => {
    const { release, claimedNoMatch } = await openHeld(page, twin);
    const rows = page.getByRole('table', { name: 'API keys' }).locator('tbody tr');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(`Twin new ${twin}`);
    await expect(page.getByText('Searching… 1 match in the 250 newest keys so far.', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Search older keys' })).toBeDisabled();
    await page.screenshot({ path: 'test-results/screens/api-keys-search-footer.png' });
    await page.setViewportSize({ width: 320, height: 720 });
    await page.screenshot({ path: 'test-results/screens/api-keys-search-footer-320.png', fullPage: true });
    release();

    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).toContainText(`Twin old ${twin}`);
    await expect(announced(page, 'Search done: 2 matches.')).toHaveCount(1);
    await expect(page.getByRole('button', { name: 'Search older keys' })).toHaveCount(0);
    expect(claimedNoMatch).toEqual([false]);
  });

  test('after four stretches it stops, says how far it looked, and searches older keys when asked', async ({
    page,
  }) => {
    let cursors = 0;
    let asked = false;
    await openKeys(page, needle, async (route, cursor) => {
      if (!cursor || asked) return route.continue();
      // As in an organization with a thousand newer keys: three more stretches without a match, then the real one.
      cursors += 1;
      await route.fulfill({ json: { items: [], nextCursor: cursor } });
    });
    await expect(page.getByRole('heading', { name: 'Search paused' })).toBeVisible();
    await expect(page.getByText('Searched the 1,000 newest keys: no match yet.', { exact: true })).toBeVisible();
    await expect(announced(page, 'Search older keys to go on.')).toHaveCount(1);
    await expect(noMatch(page, needle)).toBeHidden();
    expect(cursors).toBe(3);
    await page.screenshot({ path: 'test-results/screens/api-keys-search-paused.png' });
    await page.setViewportSize({ width: 320, height: 720 });
    await page.screenshot({ path: 'test-results/screens/api-keys-search-paused-320.png', fullPage: true });

    asked = true;
    await page.getByRole('button', { name: 'Search older keys' }).click();
    await expect(page.getByRole('row', { name: new RegExp(`Needle ${needle}`) })).toBeVisible();
    await expect(announced(page, 'Search done: 1 match.')).toHaveCount(1);
  });

  test('when nothing matches, "no match" comes once the cursor runs out', async ({ page }) => {
    // The needle's letters the other way round: no key holds them.
    const absent = [...needle].reverse().join('');
    const pages: (string | null)[] = [];
    const claimedNoMatch: boolean[] = [];
    await openKeys(page, absent, async (route, cursor) => {
      if (cursor) claimedNoMatch.push(await noMatch(page, absent).isVisible());
      const response = await route.fetch();
      pages.push(((await response.json()) as { nextCursor: string | null }).nextCursor);
      await route.fulfill({ response });
    });
    await expect(noMatch(page, absent)).toBeVisible();
    await expect(announced(page, 'Search done: no match.')).toHaveCount(1);
    expect(pages.at(-1)).toBeNull();
    expect(claimedNoMatch).toEqual(claimedNoMatch.map(() => false));
    expect(claimedNoMatch.length).toBeGreaterThan(0);
  });
});

test('a silence search of two characters that the first stretch does not answer searches on by itself', async ({
  page,
  bob,
  demo,
}) => {
  // Two letters no other silence holds (a Greek then a Cyrillic one), in a new active silence's comment.
  const needle = letterOf(0x3b1, 25) + letterOf(0x430, 32);
  const made = await bob.post(productionSilences(demo), {
    data: {
      comment: `Short search ${needle}`,
      matchers: [{ label: 'service', op: '=', value: `short-${crypto.randomUUID().slice(0, 8)}` }],
      endsAt: new Date(Date.now() + 3_600_000).toISOString(),
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  // As in a project whose 200 newest active silences hold no match: the first page comes back empty with a cursor.
  // The list asks for the next page by itself; that request is held until `release`, then answered by the server.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const claimedNoMatch: boolean[] = [];
  const noMatch = page.getByText(`None has “${needle}” in its comment or matchers.`);
  await page.route(
    (url) => url.pathname === productionSilences(demo) && url.searchParams.get('q') === needle,
    async (route) => {
      const url = new URL(route.request().url());
      if (!url.searchParams.get('cursor')) return route.fulfill({ json: { items: [], nextCursor: 'older' } });
      claimedNoMatch.push(await noMatch.isVisible());
      await held;
      url.searchParams.delete('cursor');
      await route.fulfill({ response: await route.fetch({ url: url.href }) });
    },
  );
  await readListsInBrowser(page);
  await signInAs(page, 'bob');
  await page.goto(`/orgs/${demo.acme}/projects/${demo.production}/silences`);
  await page.getByRole('searchbox', { name: 'Search silences' }).fill(needle);
  await expect(page.getByRole('heading', { name: 'Searching…' })).toBeVisible();
  await expect(page.getByText('No match in the 200 newest active silences so far.', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Search older active silences' })).toBeDisabled();
  await expect(page.getByRole('status').filter({ hasText: 'Searching active silences…' })).toHaveCount(1);
  await page.setViewportSize({ width: 320, height: 720 });
  await page.screenshot({ path: 'test-results/screens/silences-search-more-320.png', fullPage: true });
  release();

  const rows = page.getByRole('table', { name: 'Active silences' }).locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`Short search ${needle}`);
  await expect(page.getByRole('status').filter({ hasText: 'Search done: 1 match.' })).toHaveCount(1);
  expect(claimedNoMatch).toEqual([false]);
});
