import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page, Request } from '@playwright/test';
import { expect, loadDemo, test } from '../fixtures';
import { readListsInBrowser, refuseWithIssues, signInAs } from '../support/console';
import { baseURL } from '../support/env';
import { createSub, loadDemoSubs, restoreSub, subPath, type DemoSubs } from '../support/subscriptions';
import { createQueue, queueName } from '../support/queues';
import { expectAccessible } from '../support/axe';

let subs: DemoSubs;
let pagePath: string;

test.beforeAll(async () => {
  const demo = await loadDemo();
  subs = await loadDemoSubs(demo);
  pagePath = `/orgs/${demo.acme}/projects/${demo.production}/subscriptions`;
});

/** Every PATCH the page sends, to prove what was (or was not) sent. */
function recordPatches(page: Page): Request[] {
  const patches: Request[] = [];
  page.on('request', (req) => {
    if (req.method() === 'PATCH') patches.push(req);
  });
  return patches;
}

const row = (page: Page, slug: string) => page.getByTestId(`subscription-${slug}`);
const slug = (table: Locator) => table.getByRole('link', { name: subs.https.slug, exact: true });

test('bob edits batch size and target URL of the https subscription; only those are sent, and they stay saved', async ({
  page,
}) => {
  const patches = recordPatches(page);
  await signInAs(page, 'bob');
  await page.goto(pagePath);
  await expect(row(page, subs.https.slug)).toContainText(subs.https.target.url!);
  await page.screenshot({ path: 'test-results/screens/subscriptions-editor.png', fullPage: true });
  // A marker that a full reload would erase.
  await page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));

  await page.getByRole('button', { name: `Edit ${subs.https.slug}` }).click();
  const dialog = page.getByRole('dialog', { name: `Subscription ${subs.https.slug}` });
  await expect(dialog.getByLabel('Batch size')).toHaveValue(String(subs.https.batchSize));
  await expect(dialog.getByLabel('Batch size')).toHaveAttribute('max', '10');
  await expect(dialog.getByLabel('Max concurrency')).toHaveAttribute('max', '100');
  await dialog.getByLabel('Batch size').fill('7');
  await dialog.getByLabel('Target URL').fill('https://hooks.example.com/v3/orders');
  await page.screenshot({ path: 'test-results/screens/subscriptions-edit-dialog.png' });
  try {
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(`Saved ${subs.https.slug}.`)).toBeVisible();
    expect(patches).toHaveLength(1);
    expect(patches[0].postDataJSON()).toEqual({
      batchSize: 7,
      target: { kind: 'https', url: 'https://hooks.example.com/v3/orders' },
    });

    const saved = row(page, subs.https.slug);
    await expect(saved.getByRole('cell').nth(3)).toHaveText('7');
    await expect(saved).toContainText('https://hooks.example.com/v3/orders');
    expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);

    await page.reload();
    await expect(row(page, subs.https.slug).getByRole('cell').nth(3)).toHaveText('7');
    await expect(row(page, subs.https.slug)).toContainText('https://hooks.example.com/v3/orders');
  } finally {
    await restoreSub(subs.https);
  }
});

test('every link and button of the table is a target of at least 24 by 24 px, at 1280 and 360 px', async ({ page }) => {
  await signInAs(page, 'bob');
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(pagePath);
    const table = page.getByRole('table', { name: 'Subscriptions of this project' });
    await expect(table.getByRole('button', { name: `Edit ${subs.https.slug}` })).toBeVisible();
    const targets = await table.locator('a, button').all();
    expect(targets.length).toBeGreaterThan(2);
    for (const target of targets) {
      const box = (await target.boundingBox())!;
      const what = `${await target.textContent()} at ${width} px`;
      expect(box.width, what).toBeGreaterThanOrEqual(24);
      expect(box.height, what).toBeGreaterThanOrEqual(24);
    }
    // The padding overlaps the line under it instead of pushing it down: the row keeps its height.
    const link = (await slug(table).boundingBox())!;
    const queueLine = (await slug(table).locator('xpath=following-sibling::p[1]').boundingBox())!;
    expect(queueLine.y - (link.y + link.height)).toBeLessThanOrEqual(0.5);
    const { violations } = await new AxeBuilder({ page }).withRules(['target-size']).analyze();
    expect(violations.map((v) => v.nodes.map((n) => n.target.join(' ')))).toEqual([]);
    await page.screenshot({ path: `test-results/screens/subscriptions-targets-${width}.png`, fullPage: true });
  }
});

test('a loopback target over http:// is named HTTP in its row; the hint and the form admit it as the server does', async ({
  page,
  as,
  demo,
}) => {
  // WEBHOOK_ALLOW_LOOPBACK=1 on the test servers: http://127.0.0.1 is a target they take.
  const bob = await as('bob');
  const queue = await createQueue(bob, demo.acme, demo.production, { name: queueName('loopback') });
  const sub = await createSub(bob, demo.acme, demo.production, {
    queueId: queue.id,
    state: 'paused',
    target: { kind: 'https', url: 'http://127.0.0.1:9/loopback', timeoutSeconds: 5 },
  });
  try {
    await signInAs(page, 'bob');
    await page.goto(pagePath);
    await expect(row(page, sub.slug).getByRole('cell').nth(2)).toHaveText(/^HTTP\s*http:\/\/127\.0\.0\.1:9\/loopback$/);
    await expect(row(page, subs.https.slug).getByRole('cell').nth(2)).toHaveText(/^HTTPS\s*https:\/\//);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: 'test-results/screens/subscriptions-schemes-1280.png', fullPage: true });

    await page.getByRole('button', { name: `Edit ${sub.slug}` }).click();
    const dialog = page.getByRole('dialog', { name: `Subscription ${sub.slug}` });
    const url = dialog.getByLabel('Target URL');
    await expect(url).toHaveAccessibleDescription(/this server admits loopback targets.*127\.0\.0\.1/);
    await page.setViewportSize({ width: 320, height: 720 });
    await url.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/screens/subscriptions-loopback-hint-320.png' });
    await expectAccessible(page, 'subscription dialog with the loopback hint');
    await url.fill('http://127.0.0.1:10/moved');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(`Saved ${sub.slug}.`)).toBeVisible();
    await expect(row(page, sub.slug)).toContainText('http://127.0.0.1:10/moved');
  } finally {
    await bob.delete(subPath(sub));
    await bob.delete(`/v1/organizations/${demo.acme}/projects/${demo.production}/queues/${queue.id}`);
  }
});

test('11 as batch size, or an http:// URL, is stopped at its field and nothing is sent', async ({ page }) => {
  const patches = recordPatches(page);
  await signInAs(page, 'bob');
  await page.goto(pagePath);
  await page.getByRole('button', { name: `Edit ${subs.https.slug}` }).click();
  const dialog = page.getByRole('dialog');
  const batch = dialog.getByLabel('Batch size');
  await batch.fill('11');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.locator('#subscription-batchSize-error')).toHaveText(
    'The batch size must be a whole number from 1 to 10.',
  );
  await expect(batch).toHaveAttribute('aria-invalid', 'true');
  await expect(batch).toBeFocused();

  await batch.fill('3');
  await dialog.getByLabel('Target URL').fill('http://hooks.example.com/orders');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.locator('#subscription-target-url-error')).toHaveText(
    'The URL must be absolute and start with https://.',
  );
  await expect(page.locator('#subscription-batchSize-error')).toHaveText('');
  await page.screenshot({ path: 'test-results/screens/subscriptions-field-error.png' });

  // Unsaved edits: Cancel asks first.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.getByRole('button', { name: 'Discard changes' }).click();
  await expect(dialog).toBeHidden();
  expect(patches).toHaveLength(0);
});

test('a refusal from the server shows its issues at their fields', async ({ page }) => {
  await signInAs(page, 'bob');
  await page.goto(pagePath);
  // Stand in for a server-only rule (one the shared schema cannot know in the browser) with a real envelope.
  await page.route(`**${subPath(subs.https)}`, async (route) => {
    if (route.request().method() !== 'PATCH') return route.continue();
    await refuseWithIssues(route, [
      { path: 'target.timeoutSeconds', message: 'Server says: too slow.' },
      { path: 'target.kind', message: 'The target kind is "https" and cannot be changed.' },
    ]);
  });
  await page.getByRole('button', { name: `Edit ${subs.https.slug}` }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Timeout (seconds)').fill('45');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.locator('#subscription-target-timeoutSeconds-error')).toHaveText('Server says: too slow.');
  // An issue no field shows is announced in a toast, and the dialog stays open with the edits.
  await expect(page.getByText(`Could not save ${subs.https.slug}`)).toBeVisible();
  await expect(page.getByText(/The target kind is "https" and cannot be changed\./)).toBeVisible();
  await expect(dialog).toBeVisible();
});

test('cy sees the page read-only, and the API answers 403 to her PATCH', async ({ page }) => {
  await signInAs(page, 'cy');
  await page.goto(pagePath);
  await expect(row(page, subs.https.slug)).toBeVisible();
  await expect(page.getByText('Read-only: changing subscriptions needs')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Edit / })).toHaveCount(0);
  await page.getByRole('button', { name: `View ${subs.https.slug}` }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText(subs.https.target.url!)).toBeVisible();
  await expect(dialog.getByRole('textbox')).toHaveCount(0);
  await expect(dialog.getByRole('spinbutton')).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Save changes' })).toHaveCount(0);
  await page.screenshot({ path: 'test-results/screens/subscriptions-read-only.png' });

  const res = await page.request.patch(subPath(subs.https), { data: { batchSize: 2 }, headers: { Origin: baseURL } });
  expect(res.status()).toBe(403);
  expect((await res.json()).error.code).toBe('access_denied');
});

test('the failing subscription shows its last error; the workflow one shows its kind and fields', async ({ page }) => {
  await signInAs(page, 'cy');
  await page.goto(pagePath);
  const failing = row(page, subs.failing.slug);
  await expect(failing.getByText('Failing')).toBeVisible();
  await expect(failing).toContainText('503 · http_status');
  await page.getByRole('button', { name: `View ${subs.failing.slug}` }).click();
  const error = page.getByRole('dialog').getByLabel('Last error');
  await expect(error).toContainText('Target answered 503 Service Unavailable');
  await expect(error).toContainText('503 · http_status');
  await expect(error.locator('time')).toHaveAttribute('datetime', subs.failing.status.lastError!.at);
  await page.screenshot({ path: 'test-results/screens/subscriptions-last-error.png' });
  await page.keyboard.press('Escape');

  const workflow = row(page, subs.workflow.slug);
  await expect(workflow).toContainText('Workflow');
  await expect(workflow).toContainText(subs.workflow.target.workflowId!);
  await expect(row(page, subs.https.slug).getByText('Healthy')).toBeVisible();
});

test('bob sees the workflow subscription’s kind in the form and can change its numbers only', async ({ page }) => {
  await signInAs(page, 'bob');
  await page.goto(pagePath);
  await page.getByRole('button', { name: `Edit ${subs.workflow.slug}` }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText(subs.workflow.target.workflowId!)).toBeVisible();
  await expect(dialog.getByLabel('Target URL')).toHaveCount(0);
  await expect(dialog.getByLabel('Batch size')).toBeVisible();
});

test('a newer server’s unknown target kind, health and state show as Unknown, and the page keeps working', async ({
  page,
}) => {
  // The real list, with one subscription as a later API version might send it.
  await page.route(/\/v1\/organizations\/[^/]+\/projects\/[^/]+\/subscriptions(\?|$)/, async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { items: Record<string, unknown>[] };
    for (const item of body.items)
      if (item.id === subs.https.id) {
        item.target = { kind: 'grpc', endpoint: 'grpc://queue.internal:443' };
        item.status = { ...(item.status as object), health: 'degraded' };
        item.state = 'draining';
      }
    await route.fulfill({ response, json: body });
  });
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  await readListsInBrowser(page);
  await signInAs(page, 'cy');
  await page.goto(pagePath);
  const changed = row(page, subs.https.slug);
  await expect(changed).toBeVisible();
  await expect(changed.getByText('Unknown')).toHaveCount(3);
  await expect(changed).not.toContainText('grpc://');
  // The others render as before.
  await expect(row(page, subs.failing.slug).getByText('Failing')).toBeVisible();
  await expect(row(page, subs.workflow.slug)).toContainText('Workflow');
  await page.getByRole('button', { name: `View ${subs.https.slug}` }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('Unknown', { exact: true })).toHaveCount(3);
  await expect(dialog).not.toContainText('degraded');
  await page.screenshot({ path: 'test-results/screens/subscriptions-unknown-values.png' });
  expect(errors).toEqual([]);
});
