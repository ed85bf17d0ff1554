import { expect, test } from '../fixtures';
import { signInAs } from '../support/console';
import { demoSilence, fixtureSilenceIds, read } from '../support/silences';

const silencesPage = (orgId: string, projectId: string) => `/orgs/${orgId}/projects/${projectId}/silences`;

test('bob extends an active silence by one day and edits its comment', async ({ page, as, demo }) => {
  const bob = await as('bob');
  const before = await demoSilence(bob, demo, 'active');
  await signInAs(page, 'bob');
  await page.goto(silencesPage(demo.acme, demo.production));
  await expect(page.getByRole('tab', { name: /Active/ })).toHaveAttribute('aria-selected', 'true');
  await page.screenshot({ path: 'test-results/screens/silences-list.png', fullPage: true });
  await page.locator(`tr[data-silence-id="${before.id}"]`).getByRole('button', { name: /Edit/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit silence' });
  await expect(dialog.getByText(`UTC ${before.endsAt}`)).toBeVisible();
  // The id /v1 and amtool take, beside its slug, to copy.
  await expect(dialog.locator('code').first()).toHaveText(before.id);
  await expect(dialog.getByRole('button', { name: `Copy ID of silence ${before.slug}` })).toBeVisible();
  await dialog.getByRole('button', { name: 'Extend the end by 1d' }).click();
  await dialog.getByLabel('Comment').fill(`${before.comment} (extended)`);
  await page.screenshot({ path: 'test-results/screens/silences-edit-active.png' });
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toBeHidden();
  const { silence: after } = await read(bob, demo, before.id);
  expect(Date.parse(after.endsAt) - Date.parse(before.endsAt)).toBe(86_400_000);
  expect(after).toMatchObject({
    comment: `${before.comment} (extended)`,
    version: before.version + 1,
    state: 'active',
    matchers: before.matchers,
    startsAt: before.startsAt,
  });
  await expect(page.locator(`tr[data-silence-id="${before.id}"]`)).toContainText('(extended)');
  await expect(page.getByText(`Saved ${before.slug}.`)).toBeVisible();
  await expect(page.locator(`tr[data-silence-id="${before.id}"]`).getByRole('button', { name: /Edit/ })).toBeFocused();
});

test('the matchers and start of an active silence are not editable', async ({ page, as, demo }) => {
  const active = await demoSilence(await as('bob'), demo, 'active');
  await signInAs(page, 'bob');
  await page.goto(silencesPage(demo.acme, demo.production));
  await page.locator(`tr[data-silence-id="${active.id}"]`).getByRole('button', { name: /Edit/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit silence' });
  await expect(dialog.getByText('only its end and comment can change')).toBeVisible();
  for (const label of ['Label', 'Value']) await expect(dialog.getByLabel(label).first()).toBeDisabled();
  await expect(dialog.getByRole('combobox', { name: 'Operator' }).first()).toBeDisabled();
  await expect(dialog.getByRole('button', { name: 'Add matcher' })).toHaveCount(0);
  await expect(dialog.getByLabel(/^Start/)).toBeDisabled();
  await expect(dialog.getByLabel(/^End/)).toBeEnabled();
  await expect(dialog.getByLabel('Comment')).toBeEnabled();
});

test('an invalid RE2 pattern is stopped at its field, before any request', async ({ page, demo }) => {
  const id = fixtureSilenceIds()['scheduled ui'];
  const patches: string[] = [];
  page.on('request', (req) => {
    if (req.method() === 'PATCH') patches.push(req.url());
  });
  await signInAs(page, 'bob');
  await page.goto(silencesPage(demo.acme, demo.production));
  await page.getByRole('tab', { name: /Scheduled/ }).click();
  await page.locator(`tr[data-silence-id="${id}"]`).getByRole('button', { name: /Edit/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit silence' });
  await dialog.getByRole('combobox', { name: 'Operator' }).first().click();
  await page.getByRole('option', { name: '=~ regex' }).click();
  await dialog.getByLabel('Value').first().fill('(?=x)');
  await expect(dialog.locator('#matcher-0-value-error')).toContainText('invalid or unsupported Perl syntax');
  await dialog.getByLabel('Value').first().fill('.*');
  await expect(dialog.locator('#matchers-error')).toContainText('must not match the empty string');
  await page.screenshot({ path: 'test-results/screens/silences-empty-rule.png' });
  await dialog.getByLabel('Value').first().fill('(?=x)');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog.locator('#matcher-0-value-error')).toContainText('invalid or unsupported Perl syntax');
  await page.screenshot({ path: 'test-results/screens/silences-invalid-regex.png' });
  await expect(dialog).toBeVisible();
  expect(patches).toEqual([]);
});

test('a stale form gets the 412 message and can reload the silence', async ({ page, as, demo }) => {
  const bob = await as('bob');
  const id = fixtureSilenceIds()['scheduled ui'];
  await signInAs(page, 'bob');
  await page.goto(silencesPage(demo.acme, demo.production));
  await page.getByRole('tab', { name: /Scheduled/ }).click();
  await page.locator(`tr[data-silence-id="${id}"]`).getByRole('button', { name: /Edit/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit silence' });
  await expect(dialog.getByLabel('Comment')).not.toHaveValue('');

  const changedElsewhere = `changed elsewhere ${Date.now()}`;
  expect(
    (
      await bob.patch(`/v1/organizations/${demo.acme}/projects/${demo.production}/obs/silences/${id}`, {
        data: { comment: changedElsewhere },
      })
    ).status(),
  ).toBe(200);

  await dialog.getByLabel('Comment').fill('my stale edit');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(
    dialog.getByRole('alert').filter({ hasText: 'This silence changed since you opened it.' }),
  ).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/silences-stale.png' });
  expect((await read(bob, demo, id)).silence.comment).toBe(changedElsewhere);
  await dialog.getByRole('button', { name: 'Reload the silence' }).click();
  await expect(dialog.getByLabel('Comment')).toHaveValue(changedElsewhere);
});

test('an expired silence opens read-only with the reason', async ({ page, as, demo }) => {
  const expired = await demoSilence(await as('bob'), demo, 'expired');
  await signInAs(page, 'bob');
  await page.goto(silencesPage(demo.acme, demo.production));
  await page.getByRole('tab', { name: /Expired/ }).click();
  await page.locator(`tr[data-silence-id="${expired.id}"]`).getByRole('button', { name: /View/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Silence' });
  await expect(dialog.getByRole('note')).toContainText('an expired silence cannot be changed');
  await expect(dialog.getByRole('button', { name: 'Save changes' })).toHaveCount(0);
  await expect(dialog.getByLabel('Comment')).toBeDisabled();
});

test('cy (no obs.silences.update) opens a silence read-only, and the API answers her 403', async ({
  page,
  as,
  demo,
}) => {
  const cy = await as('cy');
  const active = await demoSilence(cy, demo, 'active');
  const patches: string[] = [];
  page.on('request', (req) => {
    if (req.method() === 'PATCH') patches.push(req.url());
  });
  await signInAs(page, 'cy');
  await page.goto(silencesPage(demo.acme, demo.production));
  await page
    .locator(`tr[data-silence-id="${active.id}"]`)
    .getByRole('button', { name: /Edit|View/ })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Silence' });
  await expect(dialog.getByRole('note')).toContainText('obs.silences.update');
  await expect(dialog.getByLabel('Comment')).not.toBeEditable();
  await expect(dialog.getByLabel(/^End/)).not.toBeEditable();
  await expect(dialog.getByRole('button', { name: 'Save changes' })).toHaveCount(0);
  expect(patches).toEqual([]);
  const path = `/v1/organizations/${demo.acme}/projects/${demo.production}/obs/silences/${active.id}`;
  expect((await cy.patch(path, { data: { comment: 'cy was here' } })).status()).toBe(403);
});
