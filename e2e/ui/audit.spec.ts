import { expect, test } from '../fixtures';
import { createKey } from '../support/api-keys';
import { auditPath } from '../support/audit';
import { choose, signInAs } from '../support/console';
import { createQueue, queueName } from '../support/queues';
import { productionSilences } from '../support/silences';

test('ada filters the log to api_key.*, opens a revocation and sees who, when and why', async ({ page, demo, as }) => {
  const bob = await as('bob');
  const key = await createKey(bob, demo.acme, { name: 'audited in the browser' });
  expect((await bob.delete(`/v1/organizations/${demo.acme}/api-keys/${key.apiKey.id}`)).status()).toBe(204);

  await signInAs(page, 'ada@acme.test');
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Audit log' }).click();
  await expect(page).toHaveURL(`/orgs/${demo.acme}/audit`);
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
  await choose(page, 'Action', 'api_key.*');

  const table = page.getByRole('table', { name: 'Audit events, newest first' });
  for (const action of await table.getByRole('rowheader').allTextContents()) expect(action).toMatch(/^api_key\./);
  const row = table.getByRole('row', { name: new RegExp(`api_key\\.revoked.*audited in the browser`) });
  const toggle = row.getByRole('button', { name: 'api_key.revoked' });
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const details = page.locator(`#${await toggle.getAttribute('aria-controls')}`);
  await expect(details).toContainText('Bob Builder (user, by console session)');
  await expect(details).toContainText('revoked');
  await expect(details.getByRole('time')).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT/);
  await expect(details).toContainText('no longer exists');
  await page.screenshot({ path: 'test-results/screens/audit-log.png' });

  await expect(page.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
    'href',
    `${auditPath(demo.acme)}/export?action=api_key.*&format=csv`,
  );
});

test('an entry links to what it names, inside the window: a queue to its page, a silence to its dialog, at 1280 and 360 px', async ({
  page,
  demo,
  as,
}) => {
  const ada = await as('ada');
  const name = queueName('audited');
  const queue = await createQueue(ada, demo.acme, demo.production, { name });
  const made = await ada.post(productionSilences(demo), {
    data: {
      comment: `audited ${name}`,
      matchers: [{ label: 'service', op: '=', value: name }],
      endsAt: new Date(Date.now() + 3_600_000).toISOString(),
    },
  });
  expect(made.status()).toBe(201);
  const silence = (await made.json()) as { id: string; slug: string };

  await signInAs(page, 'ada@acme.test');
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(`/orgs/${demo.acme}/audit`);
    const table = page.getByRole('table', { name: 'Audit events, newest first' });
    // The slug is the link's text; its accessible name also says where it goes.
    const toQueue = table.getByRole('link', { name: `${queue.slug} (open the queue)` });
    await expect(toQueue).toBeVisible();
    const box = (await toQueue.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(24);
    // Inside the window without scrolling sideways: at 360 px each entry is a card with every column in it.
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.screenshot({ path: `test-results/screens/audit-links-${width}.png` });
    await toQueue.click();
    await expect(page).toHaveURL(`/orgs/${demo.acme}/projects/${demo.production}/queues/${queue.id}`);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();

    await page.goBack();
    await table.getByRole('link', { name: `${silence.slug} (open the silence)` }).click();
    await expect(page).toHaveURL(`/orgs/${demo.acme}/projects/${demo.production}/silences?open=${silence.id}`);
    await expect(page.getByRole('dialog', { name: 'Edit silence' }).locator('code').first()).toHaveText(silence.id);
  }
});

test('cy sees no audit log in the navigation and the API refuses her', async ({ page, demo, as }) => {
  await signInAs(page, 'cy@acme.test');
  const nav = page.getByRole('navigation', { name: 'Console' });
  await expect(nav.getByRole('link', { name: 'Members' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Audit log' })).toHaveCount(0);
  expect((await (await as('cy')).get(auditPath(demo.acme))).status()).toBe(403);
  await page.goto(`/orgs/${demo.acme}/audit`);
  await expect(page.getByText('You cannot read the audit log')).toBeVisible();
});

test('ada verifies the whole log from the console: the start and the result announced, the latest shown after a reload', async ({
  page,
  demo,
}) => {
  await signInAs(page, 'ada@acme.test');
  await page.goto(`/orgs/${demo.acme}/audit`);
  const section = page.getByRole('region', { name: 'Hash chain' });
  const start = section.getByRole('button', { name: 'Verify the whole log' });
  // Enabled once the latest job (if any) has loaded.
  await expect(start).toBeEnabled();
  await start.focus();
  await page.keyboard.press('Enter');
  // Started (announced), then its result once the job ends: a toast and the line under the button.
  await expect(page.getByText(/^Verifying the whole log: [\d,]+ events\.$/)).toBeVisible();
  const result = /^The whole log verifies: [\d,]+ events check out\.$/;
  await expect(page.getByText(result)).toBeVisible({ timeout: 30_000 });
  await expect(section).toContainText(/The whole log verifies: [\d,]+ events check out\. Finished/);
  await expect(start).toBeEnabled();
  await page.screenshot({ path: 'test-results/screens/audit-verify-1280.png' });
  await page.setViewportSize({ width: 320, height: 800 });
  await expect(start).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/audit-verify-320.png', fullPage: true });

  // A reload shows the latest job's result without announcing it again.
  await page.reload();
  await expect(section).toContainText(/The whole log verifies/);
  await expect(page.getByText(result)).toHaveCount(0);
});
