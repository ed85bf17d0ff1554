import type { Page } from '@playwright/test';
import { EMAILS, expect, loadDemo, sessionFor, test } from '../fixtures';
import { signInAs } from '../support/console';
import { loadDemoSubs, readSub, subPath, type DemoSubs } from '../support/subscriptions';

let subs: DemoSubs;
test.beforeAll(async () => {
  subs = await loadDemoSubs(await loadDemo());
});

const row = (page: Page, slug: string) => page.getByTestId(`subscription-${slug}`);

test('bob resumes the failing (paused) subscription and pauses it again, each after confirming', async ({
  page,
  demo,
}) => {
  const failing = subs.failing;
  expect(failing.state).toBe('paused');
  const posts: string[] = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && req.url().includes('/subscriptions/')) posts.push(new URL(req.url()).pathname);
  });
  const ada = await sessionFor('ada');
  try {
    await signInAs(page, EMAILS.bob);
    await page.goto(`/orgs/${demo.acme}/projects/${demo.production}/subscriptions`);
    await expect(row(page, failing.slug)).toContainText('Paused');

    await row(page, failing.slug)
      .getByRole('button', { name: `Resume ${failing.slug}` })
      .click();
    const resume = page.getByRole('alertdialog', { name: `Resume ${failing.slug}?` });
    await expect(resume.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await resume.getByRole('button', { name: 'Cancel' }).click();
    expect(posts).toEqual([]);

    await row(page, failing.slug)
      .getByRole('button', { name: `Resume ${failing.slug}` })
      .click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Resume subscription' }).click();
    await expect(page.getByRole('alertdialog')).toBeHidden();
    await expect(page.getByText(`Resumed ${failing.slug}.`)).toBeVisible();
    await expect(row(page, failing.slug).getByRole('cell').nth(1)).toHaveText('Active');
    expect((await readSub(ada, failing)).state).toBe('active');

    await row(page, failing.slug)
      .getByRole('button', { name: `Pause ${failing.slug}` })
      .click();
    await page.screenshot({ path: 'test-results/screens/subscriptions-pause-confirm.png' });
    await page
      .getByRole('alertdialog', { name: `Pause ${failing.slug}?` })
      .getByRole('button', { name: 'Pause subscription' })
      .click();
    await expect(page.getByText(`Paused ${failing.slug}.`)).toBeVisible();
    await expect(row(page, failing.slug).getByRole('cell').nth(1)).toHaveText('Paused');
    expect((await readSub(ada, failing)).state).toBe('paused');
    expect(posts).toEqual([`${subPath(failing)}/resume`, `${subPath(failing)}/pause`]);
  } finally {
    expect((await ada.post(`${subPath(failing)}/pause`)).status()).toBe(200);
    await ada.dispose();
  }
});

test('cy (read-only) is offered no pause or resume', async ({ page, demo }) => {
  await signInAs(page, EMAILS.cy);
  await page.goto(`/orgs/${demo.acme}/projects/${demo.production}/subscriptions`);
  await expect(row(page, subs.https.slug).getByRole('button', { name: `View ${subs.https.slug}` })).toBeVisible();
  await expect(page.getByRole('button', { name: /^(Pause|Resume) qsb_/ })).toHaveCount(0);
});
