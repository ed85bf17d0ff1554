import type { Locator, Page } from '@playwright/test';
import { EMAILS, expect, test } from '../fixtures';
import { choose, signInAs } from '../support/console';
import { listAll, productionSilences } from '../support/silences';

const silencesPage = (orgId: string, projectId: string) => `/orgs/${orgId}/projects/${projectId}/silences`;

/** Moves focus with Tab, as a keyboard user would, until `target` has it. */
async function tabTo(page: Page, target: Locator) {
  for (let presses = 0; presses < 40; presses++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

test('bob silences a new incident keyboard-only, sees it active, expires it and recreates it', async ({
  page,
  as,
  demo,
}) => {
  // Three dialogs walked through with Tab, one key at a time: a long test, not a slow feature.
  test.slow();
  const comment = `db-7 disk full ${Date.now()}`;
  const value = `DiskFull${Date.now()}`;
  await signInAs(page, EMAILS.bob);
  await page.goto(silencesPage(demo.acme, demo.production));

  await tabTo(page, page.getByRole('button', { name: 'New silence' }));
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'New silence' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('radio', { name: '1 hour' })).toBeChecked();
  await tabTo(page, dialog.getByRole('radio', { name: '1 hour' }));
  await page.keyboard.press('ArrowRight');
  await expect(dialog.getByRole('radio', { name: '4 hours' })).toBeChecked();
  await tabTo(page, dialog.getByLabel('Label'));
  await page.keyboard.type('alertname');
  await tabTo(page, dialog.getByLabel('Value'));
  await page.keyboard.type(value);
  await tabTo(page, dialog.getByLabel('Comment'));
  await page.keyboard.type(comment);
  await page.screenshot({ path: 'test-results/screens/silences-new.png' });
  await tabTo(page, dialog.getByRole('button', { name: 'Create silence' }));
  await page.keyboard.press('Enter');

  await expect(dialog).toBeHidden();
  await expect(page.getByText(/Created silence sil_[a-z0-9]{12}: it is active/)).toBeVisible();
  await expect(page.getByRole('tab', { name: /Active/ })).toHaveAttribute('aria-selected', 'true');
  const bob = await as('bob');
  const [created] = (await listAll(bob, productionSilences(demo))).filter((s) => s.comment === comment);
  expect(created).toMatchObject({ state: 'active', matchers: [{ label: 'alertname', op: '=', value }] });
  const lasts = Date.parse(created.endsAt) - Date.parse(created.startsAt);
  expect(Math.abs(lasts - 4 * 3_600_000)).toBeLessThan(60_000);
  const row = page.locator(`tr[data-silence-id="${created.id}"]`);
  await expect(row).toContainText(comment);

  // The create's toast links to the new silence: its dialog, on this page.
  await page.getByRole('link', { name: 'Open the silence' }).click();
  await expect(page).toHaveURL(new RegExp(`/silences\\?open=${created.id}$`));
  const editor = page.getByRole('dialog', { name: 'Edit silence' });
  await expect(editor.locator('code').first()).toHaveText(created.id);
  await tabTo(page, editor.getByRole('button', { name: 'Expire now' }));
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('alertdialog', { name: 'Expire this silence now?' });
  await expect(confirm).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/silences-expire-confirm.png' });
  await tabTo(page, confirm.getByRole('button', { name: 'Expire silence' }));
  await page.keyboard.press('Enter');
  await expect(confirm).toBeHidden();
  await expect(editor).toBeHidden();
  await expect(page.getByText(`Expired silence ${created.slug}: it is expired.`)).toBeVisible();
  await expect(page.getByRole('tab', { name: /Expired/ })).toHaveAttribute('aria-selected', 'true');
  await expect(row).toBeVisible();

  await tabTo(page, row.getByRole('button', { name: `Recreate silence: ${comment}` }));
  await page.keyboard.press('Enter');
  const again = page.getByRole('dialog', { name: 'New silence' });
  await expect(again.getByLabel('Value')).toHaveValue(value);
  await expect(again.getByLabel('Comment')).toHaveValue(comment);
  await tabTo(page, again.getByRole('button', { name: 'Create silence' }));
  await page.keyboard.press('Enter');
  await expect(again).toBeHidden();
  await expect(page.getByRole('tab', { name: /Active/ })).toHaveAttribute('aria-selected', 'true');

  const withComment = (await listAll(bob, productionSilences(demo))).filter((s) => s.comment === comment);
  expect(withComment.map((s) => s.state).sort()).toEqual(['active', 'expired']);
  const recreated = withComment.find((s) => s.state === 'active')!;
  expect(recreated.matchers).toEqual(created.matchers);
  await expect(page.locator(`tr[data-silence-id="${recreated.id}"]`)).toContainText(comment);
});

test('a new silence with an invalid regex is refused at its field, and nothing is sent', async ({ page, demo }) => {
  const posts: string[] = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && req.url().includes('/obs/silences')) posts.push(req.url());
  });
  await signInAs(page, EMAILS.bob);
  await page.goto(silencesPage(demo.acme, demo.production));
  await page.getByRole('button', { name: 'New silence' }).click();
  const dialog = page.getByRole('dialog', { name: 'New silence' });
  await dialog.getByLabel('Label').fill('job');
  await choose(page, 'Operator', '=~ regex');
  await dialog.getByLabel('Value').fill('(?=x)');
  await dialog.getByLabel('Comment').fill('refused before sending');
  await expect(dialog.locator('#matcher-0-value-error')).toContainText('invalid or unsupported Perl syntax');
  await dialog.getByRole('button', { name: 'Create silence' }).click();
  await expect(dialog.locator('#matcher-0-value-error')).toContainText('invalid or unsupported Perl syntax');
  await expect(dialog.getByLabel('Value')).toBeFocused();
  await expect(dialog).toBeVisible();
  expect(posts).toEqual([]);
});

test('a new silence opens without errors; the matchers rule is said once they are touched, or on submit', async ({
  page,
  demo,
}) => {
  await signInAs(page, EMAILS.bob);
  await page.goto(silencesPage(demo.acme, demo.production));
  const open = async () => {
    await page.getByRole('button', { name: 'New silence' }).click();
    return page.getByRole('dialog', { name: 'New silence' });
  };
  let dialog = await open();
  await expect(dialog.getByLabel('Label')).toBeVisible();
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await expect(dialog.locator('#matchers-error')).toBeEmpty();
  // Left without a value: touched, so the rule is said.
  await dialog.getByLabel('Label').focus();
  await page.keyboard.press('Tab');
  await expect(dialog.locator('#matchers-error')).toContainText('must not match the empty string');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Submitted untouched: the rule is said too.
  dialog = await open();
  await expect(dialog.locator('#matchers-error')).toBeEmpty();
  await dialog.getByRole('button', { name: 'Create silence' }).click();
  await expect(dialog.locator('#matchers-error')).toContainText('must not match the empty string');
  await expect(dialog).toBeVisible();
});

test('cy (no obs.silences.create) is offered neither New silence nor Recreate', async ({ page, demo }) => {
  await signInAs(page, EMAILS.cy);
  await page.goto(silencesPage(demo.acme, demo.production));
  await page.getByRole('tab', { name: /Expired/ }).click();
  await expect(page.getByRole('button', { name: /^View silence/ }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'New silence' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Recreate/ })).toHaveCount(0);
});
