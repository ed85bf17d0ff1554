import { expect, test } from '../fixtures';
import { createKey } from '../support/api-keys';
import { signInAs } from '../support/console';
import { productionSilences } from '../support/silences';

test('bob finds one key by a part of its name or its prefix; the search stays in the URL', async ({
  page,
  as,
  demo,
}) => {
  const bob = await as('bob');
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
  as,
  demo,
}) => {
  const bob = await as('bob');
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
