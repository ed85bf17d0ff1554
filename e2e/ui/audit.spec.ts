import { expect, test } from '../fixtures';
import { createKey } from '../support/api-keys';
import { auditPath } from '../support/audit';
import { choose, signInAs } from '../support/console';

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
