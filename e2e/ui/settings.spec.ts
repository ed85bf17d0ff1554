import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { expectAccessible, expectAccessibleInBothSchemes, WIDTHS } from '../support/axe';
import { signInAs } from '../support/console';
import { baseURL } from '../support/env';

type Project = { id: string; name: string; alertingEnabled: boolean };

/** An organization of the test's own, made by ada's session (she becomes its admin), so Acme stays as it is. */
async function ownOrganization(ada: APIRequestContext, name: string): Promise<string> {
  const made = await ada.post('/v1/organizations', { data: { name } });
  expect(made.status()).toBe(201);
  return ((await made.json()) as { id: string }).id;
}

async function projectsOf(ada: APIRequestContext, orgId: string): Promise<Project[]> {
  return ((await (await ada.get(`/v1/organizations/${orgId}/projects`)).json()) as { items: Project[] }).items;
}

/** Presses Enter on a control reached by focus, as a keyboard user would after tabbing to it. */
async function press(page: Page, control: ReturnType<Page['getByRole']>, key = 'Enter'): Promise<void> {
  await control.focus();
  await page.keyboard.press(key);
}

for (const width of WIDTHS) {
  test(`ada runs an organization's projects from Settings by keyboard at ${width} px`, async ({ page, as }) => {
    test.slow();
    const ada = await as('ada');
    const stamp = `${width}-${Date.now()}`;
    const orgId = await ownOrganization(ada, `Settings ${stamp}`);
    await ada.post(`/v1/organizations/${orgId}/projects`, { data: { name: 'Taken' } });
    await page.setViewportSize({ width, height: 800 });
    await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
    await signInAs(page, 'ada@acme.test');
    await page.goto(`/orgs/${orgId}/settings`);
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Organization name' }).getByLabel('Name')).toHaveValue(
      `Settings ${stamp}`,
    );
    // The policies moved here from Members, whole.
    await expect(page.getByRole('switch', { name: 'Require a second factor' })).toBeEnabled();
    await expect(page.getByRole('region', { name: 'API key policy' })).toBeVisible();

    // New project: a name the organization has is refused under the field, then another one is made.
    // Settings' own button (the project switcher in the sidebar has one too).
    const newProject = page.getByRole('main').getByRole('button', { name: 'New project' });
    await press(page, newProject);
    const form = page.getByRole('dialog', { name: 'New project' });
    await expect(form.getByLabel('Name')).toBeFocused();
    await page.keyboard.type('Taken');
    await press(page, form.getByRole('button', { name: 'Create project' }));
    await expect(form.getByText('A project of this organization is already called Taken.')).toBeVisible();
    await expect(form.getByLabel('Name')).toBeFocused();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('Payments');
    await press(page, form.getByLabel('Alerting on (silences and alerts)'), 'Space');
    await expectAccessibleInBothSchemes(page, `new project dialog, ${width} px`, {
      name: `settings-new-project-${width}`,
    });
    await press(page, form.getByRole('button', { name: 'Create project' }));
    await expect(page.getByText('Created the project Payments.')).toBeVisible();
    await expect(form).toBeHidden();
    await expect(newProject).toBeFocused();
    const made = (await projectsOf(ada, orgId)).find((p) => p.name === 'Payments');
    expect(made?.alertingEnabled).toBe(true);
    // The toast links to the new project, whose first page is its subscriptions.
    await page.getByRole('link', { name: 'Open the project' }).click();
    await expect(page).toHaveURL(`/orgs/${orgId}/projects/${made!.id}/subscriptions`);
    await expect(page.getByRole('heading', { level: 1, name: 'Subscriptions' })).toBeVisible();
    await page.goBack();

    // Rename it; focus comes back to its Rename button.
    const rename = page.getByRole('button', { name: 'Rename Payments' });
    await press(page, rename);
    const renaming = page.getByRole('dialog', { name: 'Rename Payments' });
    await expect(renaming.getByLabel('Name')).toBeFocused();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('Billing');
    await page.keyboard.press('Enter');
    await expect(page.getByText('Renamed Payments to Billing.')).toBeVisible();
    await expect(renaming).toBeHidden();
    await expect(page.getByRole('button', { name: 'Rename Billing' })).toBeFocused();

    // Alerting off, by its switch.
    const alerting = page.getByRole('switch', { name: 'Alerting in Billing' });
    await expect(alerting).toBeChecked();
    await press(page, alerting, 'Space');
    await expect(page.getByText(/Alerting is off in Billing/)).toBeVisible();
    await expect(alerting).not.toBeChecked();
    expect((await projectsOf(ada, orgId)).find((p) => p.id === made?.id)).toMatchObject({
      name: 'Billing',
      alertingEnabled: false,
    });
    await expectAccessibleInBothSchemes(page, `settings page, ${width} px`, {
      name: `settings-${width}`,
      fullPage: true,
    });
  });
}

test('a member without projects.update sees the projects and the policies, and no controls that would fail', async ({
  page,
  demo,
}) => {
  await signInAs(page, 'cy@acme.test');
  await page.goto(`/orgs/${demo.acme}/settings`);
  await expect(page.getByRole('row', { name: /Production/ })).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Alerting in Production' })).toBeDisabled();
  // Neither in Settings nor under the project switcher.
  await expect(page.getByRole('button', { name: 'New project' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Rename / })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'API key policy' }).getByLabel('Allowed IP ranges')).toBeDisabled();
});

for (const width of [1280, 320]) {
  test(`ada makes a new organization from the switcher by keyboard at ${width} px and lands in it`, async ({
    page,
    as,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    await signInAs(page, 'ada@acme.test');
    if (width < 1024) await press(page, page.getByRole('button', { name: 'Menu' }));
    const name = `Initech ${width} ${Date.now()}`;
    await press(page, page.getByRole('button', { name: 'New organization' }).locator('visible=true'));
    const form = page.getByRole('dialog', { name: 'New organization' });
    await expect(form.getByLabel('Name')).toBeFocused();
    await expectAccessible(page, `new organization dialog, ${width} px`);
    await page.keyboard.type(name);
    await page.keyboard.press('Enter');
    await expect(page.getByText(`Created ${name}; you are its administrator.`)).toBeVisible();
    const org = ((await (await (await as('ada')).get('/v1/organizations')).json()) as { items: Project[] }).items.find(
      (o) => o.name === name,
    );
    expect(org).toBeDefined();
    await expect(page).toHaveURL(new RegExp(`/orgs/${org?.id}$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
    await page.screenshot({ path: `test-results/screens/new-organization-${width}.png` });
  });
}

for (const width of [1280, 320]) {
  test(`ada makes a project from the project switcher by keyboard at ${width} px; the switcher keeps it`, async ({
    page,
    browser,
    as,
  }) => {
    const ada = await as('ada');
    const orgId = await ownOrganization(ada, `Switcher ${width} ${Date.now()}`);
    await ada.post(`/v1/organizations/${orgId}/projects`, { data: { name: 'First' } });
    await page.setViewportSize({ width, height: 800 });
    await signInAs(page, 'ada@acme.test');
    await page.goto(`/orgs/${orgId}`);
    const menu = async () => {
      if (width < 1024) await press(page, page.getByRole('button', { name: 'Menu' }));
    };
    // On an organization's page the switcher names the project the console is in, never "Choose a project".
    await menu();
    const switcher = page.getByRole('combobox', { name: 'Project' }).locator('visible=true');
    await expect(switcher).toHaveText(/First/);
    const newProject = page.getByRole('button', { name: 'New project' }).locator('visible=true');
    await press(page, newProject);
    const form = page.getByRole('dialog', { name: 'New project' });
    await expect(form.getByLabel('Name')).toBeFocused();
    await page.keyboard.type('Second');
    await expectAccessible(page, `new project from the switcher, ${width} px`);
    await page.keyboard.press('Enter');
    await expect(page.getByText('Created the project Second.')).toBeVisible();
    const second = (await projectsOf(ada, orgId)).find((p) => p.name === 'Second')!;
    await expect(page).toHaveURL(`/orgs/${orgId}/projects/${second.id}/subscriptions`);
    await expect(page.getByRole('heading', { level: 1, name: 'Subscriptions' })).toBeVisible();
    // Focus goes back where it came from: New project in the sidebar, or the phone's Menu button.
    await expect(width < 1024 ? page.getByRole('button', { name: 'Menu' }) : newProject).toBeFocused();

    // An organization's page, opened afresh, keeps the project chosen last.
    await page.goto(`/orgs/${orgId}/members`);
    await menu();
    await expect(switcher).toHaveText(/Second/);
    await expect(page.getByRole('link', { name: 'Silences' }).locator('visible=true')).toHaveAttribute(
      'href',
      `/orgs/${orgId}/projects/${second.id}/silences`,
    );
    await page.screenshot({ path: `test-results/screens/project-switcher-${width}.png` });

    // The server's own HTML names it, with no script run: the first paint is already in the project.
    const plain = await browser.newContext({
      baseURL,
      javaScriptEnabled: false,
      storageState: await page.context().storageState(),
    });
    try {
      const html = await plain.newPage();
      await html.setViewportSize({ width: 1280, height: 800 });
      await html.goto(`/orgs/${orgId}/members`);
      await expect(html.getByRole('combobox', { name: 'Project' }).locator('visible=true')).toHaveText(/Second/);
    } finally {
      await plain.close();
    }
  });
}

test('ada renames her organization by keyboard at 320 px; an empty name is refused under the field', async ({
  page,
  as,
}) => {
  const ada = await as('ada');
  const stamp = Date.now();
  const orgId = await ownOrganization(ada, `Before ${stamp}`);
  await page.setViewportSize({ width: 320, height: 800 });
  await page.emulateMedia({ colorScheme: 'dark', reducedMotion: 'reduce' });
  await signInAs(page, 'ada@acme.test');
  await page.goto(`/orgs/${orgId}/settings`);
  const section = page.getByRole('region', { name: 'Organization name' });
  const name = section.getByLabel('Name');
  await expect(name).toHaveValue(`Before ${stamp}`);
  await name.focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Enter');
  await expect(section.getByText('Enter a name.')).toBeVisible();
  await expectAccessible(page, 'organization name refused, 320 px dark');
  await page.keyboard.type(`After ${stamp}`);
  await press(page, section.getByRole('button', { name: 'Rename' }));
  await expect(page.getByText(`Renamed the organization to After ${stamp}.`)).toBeVisible();
  const orgs = (await (await ada.get('/v1/organizations?limit=100')).json()) as {
    items: { id: string; name: string }[];
  };
  expect(orgs.items.find((o) => o.id === orgId)?.name).toBe(`After ${stamp}`);
  const events = (await (
    await ada.get(`/v1/organizations/${orgId}/audit-events?action=organization.updated`)
  ).json()) as {
    items: { changes: { field: string; from: unknown; to: unknown }[] }[];
  };
  expect(events.items[0].changes).toEqual([{ field: 'name', from: `Before ${stamp}`, to: `After ${stamp}` }]);
  await page.screenshot({ path: 'test-results/screens/settings-rename-320-dark.png' });
});

for (const width of [1280, 320]) {
  test(`the guided start's "A project with alerting" opens New project with alerting on, at ${width} px`, async ({
    page,
    as,
  }) => {
    const ada = await as('ada');
    const orgId = await ownOrganization(ada, `Guided ${width} ${Date.now()}`);
    await page.setViewportSize({ width, height: 800 });
    await signInAs(page, 'ada@acme.test');
    await page.goto(`/orgs/${orgId}`);
    const start = page.getByRole('region', { name: 'Get started' });
    await press(page, start.getByRole('link', { name: 'New project (step: A project with alerting)' }));
    await expect(page).toHaveURL(`/orgs/${orgId}/settings?new-project=alerting`);
    const dialog = page.getByRole('dialog', { name: 'New project' });
    await expect(dialog.getByLabel('Alerting on (silences and alerts)')).toBeChecked();
    await expect(dialog.getByLabel('Name')).toBeFocused();
    await expectAccessible(page, `new project with alerting, ${width} px`);
    await page.screenshot({ path: `test-results/screens/guided-new-project-${width}.png` });
    await page.keyboard.type('Alerting');
    await press(page, dialog.getByRole('button', { name: 'Create project' }));
    await expect(page.getByText('Created the project Alerting.')).toBeVisible();
    await expect(dialog).toBeHidden();
    const [project] = await projectsOf(ada, orgId);
    expect(project).toMatchObject({ name: 'Alerting', alertingEnabled: true });
    // The address no longer asks for the dialog: a reload shows Settings alone.
    await expect(page).toHaveURL(`/orgs/${orgId}/settings`);
    await page.reload();
    await expect(page.getByRole('switch', { name: 'Alerting in Alerting' })).toBeChecked();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    // The step is done: the overview says so.
    await page.goto(`/orgs/${orgId}`);
    await expect(start.getByRole('listitem').filter({ hasText: 'A project with alerting' })).toContainText('Done.');
  });
}
