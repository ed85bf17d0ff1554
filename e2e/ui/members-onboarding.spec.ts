import type { Locator, Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { expectAccessible, expectAccessibleInBothSchemes, WIDTHS } from '../support/axe';
import { expectEmailWrapsWhole, signInAs } from '../support/console';
import {
  freshEmail,
  invite,
  joined,
  mailedLink,
  members,
  newOrg,
  orgScope,
  PASSWORD,
  receiveInvitations,
  type Binding,
} from '../support/onboarding';

// The main test server mails invitations: this spec receives them, as an invitee's inbox would.
const smtp = receiveInvitations();
test.beforeAll(smtp.start);
test.afterAll(smtp.stop);

async function press(page: Page, control: Locator, key = 'Enter'): Promise<void> {
  await control.focus();
  await page.keyboard.press(key);
}

/** Chooses an option of a Radix select by keyboard: open it with Enter, move to the option, take it with Enter. */
async function chooseByKeyboard(page: Page, select: Locator, option: string): Promise<void> {
  await press(page, select);
  // Focus moves to the option as the arrow keys would move it; typeahead raced the list's opening now and then.
  await press(page, page.getByRole('option', { name: option, exact: true }));
  await expect(select).toHaveText(new RegExp(option));
}

for (const width of WIDTHS) {
  test(`ada invites by keyboard, the invitee makes an account, ada changes their roles at ${width} px`, async ({
    page,
    browser,
    as,
  }) => {
    // Two people's pages, eight axe scans (four points, both schemes), the invitee's first console page: past 90 s on
    // a busy machine.
    test.setTimeout(180_000);
    const ada = await as('ada');
    const org = await newOrg(ada, `Invites ${width}`);
    const made = await ada.post(`/v1/organizations/${org.id}/projects`, { data: { name: 'Web' } });
    const project = ((await made.json()) as { id: string }).id;
    await page.setViewportSize({ width, height: 800 });
    await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
    await signInAs(page, 'ada@acme.test');
    await page.goto(`/orgs/${org.id}/members`);

    // Invite: BasicAccess in the whole organization comes preselected; SilencesEditor in Web is added.
    const email = freshEmail(`kb${width}`);
    const inviteButton = page.getByRole('button', { name: 'Invite', exact: true });
    await press(page, inviteButton);
    const form = page.getByRole('dialog', { name: 'Invite a member' });
    await expect(form.getByLabel('Email')).toBeFocused();
    await page.keyboard.type(email);
    await expect(form.getByRole('combobox', { name: 'Policy of role 1' })).toHaveText(/BasicAccess/);
    await expect(form.getByRole('combobox', { name: 'Scope of role 1' })).toHaveText(/Whole organization/);
    await press(page, form.getByRole('button', { name: 'Add role' }));
    await chooseByKeyboard(page, form.getByRole('combobox', { name: 'Policy of role 2' }), 'SilencesEditor');
    await chooseByKeyboard(page, form.getByRole('combobox', { name: 'Scope of role 2' }), 'Project Web');
    await expectAccessibleInBothSchemes(page, `invite dialog, ${width} px`, { name: `invite-${width}` });
    await press(page, form.getByRole('button', { name: 'Send invitation' }));
    await expect(page.getByText(`Emailed the invitation to ${email}.`)).toBeVisible();
    await expect(form).toBeHidden();
    await expect(inviteButton).toBeFocused();
    const pending = page.getByRole('region', { name: 'Pending invitations' });
    const pendingRow = pending.getByRole('row', { name: new RegExp(email) });
    await expect(pendingRow).toContainText('SilencesEditor in Web');
    // However narrow its column, the email wraps at its @ and dots, never inside a word.
    await expectEmailWrapsWhole(pendingRow.getByRole('rowheader').locator('span').first(), email);

    // Resend: a new link by email, the old one dead.
    const first = mailedLink(email);
    await press(page, page.getByRole('button', { name: `Resend the invitation to ${email}` }));
    await expect(page.getByText(`Emailed ${email} a new link; the old one no longer works.`)).toBeVisible();
    await expect.poll(() => mailedLink(email)).not.toBe(first);
    await expectAccessibleInBothSchemes(page, `members page with a pending invitation, ${width} px`, {
      name: `members-invitations-${width}`,
      fullPage: true,
    });

    // The invitee, in a browser of their own, makes the account from the mailed link.
    const invitee = await browser.newContext({
      viewport: { width, height: 800 },
      colorScheme: 'light',
      reducedMotion: 'reduce',
    });
    const inviteePage = await invitee.newPage();
    await inviteePage.goto(mailedLink(email));
    await expect(inviteePage.getByText(`Ada Lovelace invited ${email} to join ${org.name}.`)).toBeVisible();
    await press(inviteePage, inviteePage.getByLabel('Your name'), 'End');
    await inviteePage.keyboard.type(`Kay ${width}`);
    await inviteePage.keyboard.press('Tab');
    await inviteePage.keyboard.type(PASSWORD);
    await expectAccessibleInBothSchemes(inviteePage, `invitation page, ${width} px`, { name: `invitation-${width}` });
    await inviteePage.keyboard.press('Enter');
    // Signed in at once, in the organization just joined.
    await expect(inviteePage).toHaveURL(new RegExp(`/orgs/${org.id}$`));
    await expect(inviteePage.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
    await invitee.close();

    // ada changes the new member's roles: the project role goes, ApiKeyAdmin comes.
    await page.reload();
    const row = page.getByRole('row', { name: new RegExp(`Kay ${width}`) });
    await expect(row).toContainText('SilencesEditor in Web');
    await expectEmailWrapsWhole(row.locator('td[data-label="Email"] > span'), email);
    const change = row.getByRole('button', { name: `Change roles of Kay ${width}` });
    await press(page, change);
    const roles = page.getByRole('dialog', { name: `Change roles of Kay ${width}` });
    await press(page, roles.getByRole('button', { name: 'Remove role 2' }));
    await expect(roles.getByRole('button', { name: 'Add role' })).toBeFocused();
    await page.keyboard.press('Enter');
    await chooseByKeyboard(page, roles.getByRole('combobox', { name: 'Policy of role 2' }), 'ApiKeyAdmin');
    await expectAccessibleInBothSchemes(page, `change roles dialog, ${width} px`);
    await press(page, roles.getByRole('button', { name: 'Save roles' }));
    await expect(page.getByText(`Changed the roles of Kay ${width}.`)).toBeVisible();
    await expect(change).toBeFocused();
    const kay = (await members(ada, org.id)).find((m) => m.email === email);
    expect(kay?.policies).toEqual(expect.arrayContaining(orgScope('BasicAccess', 'ApiKeyAdmin')));
    expect(kay?.policies).toHaveLength(2);
    expect(project).toBeTruthy();
  });
}

test('ada revokes a pending invitation by keyboard; its link then says it no longer works', async ({ page, as }) => {
  const ada = await as('ada');
  const org = await newOrg(ada, 'Revoke');
  const email = freshEmail('revoked');
  const { link } = await invite(ada, org.id, email, orgScope('BasicAccess'));
  await signInAs(page, 'ada@acme.test');
  await page.goto(`/orgs/${org.id}/members`);
  await press(page, page.getByRole('button', { name: `Revoke the invitation to ${email}` }));
  const confirm = page.getByRole('alertdialog', { name: `Revoke the invitation to ${email}?` });
  await press(page, confirm.getByRole('button', { name: 'Revoke invitation' }));
  await expect(page.getByText(`Revoked the invitation to ${email}.`)).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Members' })).toBeFocused();
  await expect(page.getByText('No invitation is waiting to be accepted.')).toBeVisible();
  await page.goto(link);
  await expect(page.getByRole('main').getByRole('alert')).toContainText('This invitation no longer works');
});

test('ada makes a bot with roles and changes them, by keyboard', async ({ page, as }) => {
  const ada = await as('ada');
  const org = await newOrg(ada, 'Bots');
  await signInAs(page, 'ada@acme.test');
  await page.goto(`/orgs/${org.id}/bots`);
  const newBot = page.getByRole('button', { name: 'New bot' });
  await press(page, newBot);
  const form = page.getByRole('dialog', { name: 'New bot' });
  await expect(form.getByLabel('Name')).toBeFocused();
  await page.keyboard.type('ci-bot');
  await chooseByKeyboard(page, form.getByRole('combobox', { name: 'Policy of role 1' }), 'QueuesEditor');
  await expectAccessible(page, 'new bot dialog');
  await press(page, form.getByRole('button', { name: 'Create bot' }));
  await expect(page.getByText(/Created the bot ci-bot\./)).toBeVisible();
  // The toast says where its keys are made, with the way there.
  await expect(page.getByRole('link', { name: 'Open API keys' })).toHaveAttribute('href', `/orgs/${org.id}/api-keys`);
  await expect(newBot).toBeFocused();
  await press(page, page.getByRole('button', { name: 'Change roles of ci-bot' }));
  const roles = page.getByRole('dialog', { name: 'Change roles of ci-bot' });
  await expect(roles.getByText(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)).toBeVisible();
  await expect(roles.getByRole('button', { name: 'Copy ID of ci-bot' })).toBeVisible();
  await press(page, roles.getByRole('button', { name: 'Add role' }));
  await press(page, roles.getByRole('button', { name: 'Save roles' }));
  await expect(page.getByText('Changed the roles of ci-bot.')).toBeVisible();
  const bots = (await (await ada.get(`/v1/organizations/${org.id}/bots`)).json()) as {
    items: { name: string; policies: Binding[] }[];
  };
  expect(bots.items.find((b) => b.name === 'ci-bot')?.policies).toEqual(
    expect.arrayContaining(orgScope('QueuesEditor', 'BasicAccess')),
  );
  await page.screenshot({ path: 'test-results/screens/bots-roles.png' });
});

test('a set-up console says so on any setup link, and a dead invitation says what is wrong', async ({ page }) => {
  // This server has users: the setup page, with a token or without, offers no form, only the way to sign in.
  for (const url of ['/setup', `/setup?token=${'x'.repeat(43)}`]) {
    await page.goto(url);
    await expect(page.getByRole('heading', { level: 1, name: 'The console is set up' })).toBeVisible();
    await expect(page.getByLabel('Your name')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Create administrator' })).toHaveCount(0);
  }
  await expectAccessible(page, 'setup page of a set-up console');
  await press(page, page.getByRole('link', { name: 'Sign in' }));
  await expect(page).toHaveURL(/\/login/);
  await page.goto(`/invite/${'y'.repeat(43)}`);
  await expect(page.getByRole('main').getByRole('alert')).toContainText('This invitation no longer works');
});

test('a member who joins while the Members page is open shows on coming back to the tab, without a reload', async ({
  page,
  as,
}) => {
  const ada = await as('ada');
  const org = await newOrg(ada, 'Refocus');
  await signInAs(page, 'ada');
  await page.goto(`/orgs/${org.id}/members`);
  const table = page.getByRole('table', { name: 'Members', exact: true });
  await expect(table.getByText('ada@acme.test')).toBeVisible();
  // A marker that a reload would erase.
  await page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));

  const { email } = await joined(ada, org.id, 'refocus', orgScope('BasicAccess'));
  // The list has no timer of its own: nothing asks for the member until the tab is shown again.
  await expect(table.getByText(email)).toHaveCount(0);
  await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange', { bubbles: true })));
  await expect(table.getByText(email)).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
});
