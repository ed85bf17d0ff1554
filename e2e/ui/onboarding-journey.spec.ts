import type { APIRequestContext, Locator, Page } from '@playwright/test';
import pg from 'pg';
import { expect, test } from '../fixtures';
import { expectAccessible } from '../support/axe';
import { E2E } from '../support/env';
import { spawnServer, type Spawned } from '../support/spawn-server';
import { bearer } from '../fixtures';
import { PASSWORD, signedIn } from '../support/onboarding';

// Issues 56 and 64 in a browser: a fresh PostgreSQL database with the demo off and no email set up, the setup URL
// from the log, the first admin signed in at once, a project from the switcher, an invitation passed on by hand, the
// invitee's account (signed in at once), a role given and taken away as the invitee's key feels it, and a bot with
// roles. Its own server and database, both gone afterwards.

const PORT = E2E.port + 90;
const database = `c56_journey_${process.pid}`;
const admin = { name: 'First Admin', email: 'first@journey.test' };
const invitee = { name: 'Ivy Invited', email: 'ivy@journey.test' };
let server: Spawned;

async function onPostgres(statement: string) {
  const client = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
  await client.connect();
  await client.query(statement).finally(() => client.end());
}

async function press(page: Page, control: Locator, key = 'Enter') {
  await control.focus();
  await page.keyboard.press(key);
}

async function typeInto(page: Page, field: Locator, text: string) {
  await field.focus();
  await page.keyboard.type(text);
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  await onPostgres(`drop database if exists ${database} with (force)`);
  await onPostgres(`create database ${database}`);
  server = await spawnServer(PORT, {
    DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${database}`,
    NEXTAUTH_URL: `http://127.0.0.1:${PORT}`,
    RATE_LIMIT_NAMESPACE: `c56-journey-${Date.now()}-`,
  });
});
test.afterAll(async () => {
  await server?.stop();
  await onPostgres(`drop database if exists ${database} with (force)`);
});

test('from nothing: setup signed in, a project, an invitation passed on, roles felt by a key, a bot', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const setupUrl = /(http:\/\/\S+\/setup\?token=[A-Za-z0-9_-]{43})/.exec(server.output())?.[1];
  expect(setupUrl, server.output()).toBeDefined();
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();

  // Without its token the setup page says which link to open; from the logged URL the form opens without a word in
  // red, and the first administrator ends signed in.
  await page.goto('/setup');
  await expect(page.getByRole('main').getByRole('alert')).toContainText('needs the setup link');
  await page.goto(setupUrl!);
  await expect(page.getByRole('main').getByRole('alert').filter({ hasText: /\S/ })).toHaveCount(0);
  await typeInto(page, page.getByLabel('Your name'), admin.name);
  await typeInto(page, page.getByLabel('Email'), admin.email);
  await typeInto(page, page.getByLabel('Password'), PASSWORD);
  await typeInto(page, page.getByLabel('Organization name'), 'Hooli');
  await expectAccessible(page, 'setup page');
  await page.screenshot({ path: 'test-results/screens/setup.png' });
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/orgs\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  const orgId = /\/orgs\/([0-9a-f-]{36})/.exec(page.url())![1];

  // The setup link, opened again, says the console is set up and where to sign in: no form.
  const later = await browser.newContext({ baseURL: server.url, viewport: { width: 320, height: 640 } });
  const laterPage = await later.newPage();
  await laterPage.goto(setupUrl!);
  await expect(laterPage.getByRole('heading', { level: 1, name: 'The console is set up' })).toBeVisible();
  await expect(laterPage.getByLabel('Your name')).toHaveCount(0);
  await expectAccessible(laterPage, 'setup link after setup');
  await laterPage.screenshot({ path: 'test-results/screens/setup-done-320.png' });
  await press(laterPage, laterPage.getByRole('link', { name: 'Sign in' }));
  await expect(laterPage).toHaveURL(/\/login/);
  await later.close();

  // A project, from the switcher: the console goes into it.
  await press(page, page.getByRole('button', { name: 'New project' }));
  await page.keyboard.type('Prod');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Created the project Prod.')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/orgs/${orgId}/projects/[0-9a-f-]{36}/subscriptions$`));
  await expect(page.getByRole('combobox', { name: 'Project' })).toHaveText(/Prod/);

  // No email is set up: the invitation's link is shown once, to pass on, and said so.
  await page.goto(`/orgs/${orgId}/members`);
  const inviteButton = page.getByRole('button', { name: 'Invite', exact: true });
  await press(page, inviteButton);
  await page.keyboard.type(invitee.email);
  await press(page, page.getByRole('button', { name: 'Send invitation' }));
  await expect(
    page.getByText(`Invited ${invitee.email}. No email was sent: pass on the link shown now.`),
  ).toBeVisible();
  const reveal = page.getByRole('dialog', { name: `Invitation link for ${invitee.email}` });
  await expect(reveal).toContainText('No email was sent: pass on this link, shown once.');
  await expect(reveal).not.toContainText('secrets manager');
  await expectAccessible(page, 'invitation link dialog');
  await page.screenshot({ path: 'test-results/screens/journey-invitation-link.png' });
  const link = await reveal.getByLabel('Invitation link', { exact: true }).inputValue();
  expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
  await press(page, reveal.getByRole('button', { name: 'Done' }));
  await press(page, page.getByRole('button', { name: 'Close without copying' }));
  await expect(reveal).toBeHidden();
  await expect(inviteButton).toBeFocused();

  // The invitee makes the account from the link and is in the organization, signed in.
  const theirs = await browser.newContext({ viewport: { width: 320, height: 640 } });
  const theirPage = await theirs.newPage();
  await theirPage.goto(link);
  await typeInto(theirPage, theirPage.getByLabel('Your name'), invitee.name);
  await typeInto(theirPage, theirPage.getByLabel('Password'), PASSWORD);
  await theirPage.keyboard.press('Enter');
  await expect(theirPage).toHaveURL(new RegExp(`/orgs/${orgId}$`));
  await expect(theirPage.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  await theirs.close();

  // The invitee's key can read what BasicAccess gives, not the member list.
  const session: APIRequestContext = await signedIn(invitee.email, server.url);
  const made = await session.post(`/v1/organizations/${orgId}/api-keys`, { data: { name: 'ivy key' } });
  expect(made.status(), await made.text()).toBe(201);
  const key = await bearer(((await made.json()) as { secret: string }).secret, server.url);
  const listMembers = async () => (await key.get(`/v1/organizations/${orgId}/members`)).status();
  expect(await listMembers()).toBe(403);

  // MemberAdmin given in the console: the key feels it on its next request; taken away, it is gone again.
  await page.reload();
  const change = page.getByRole('button', { name: `Change roles of ${invitee.name}` });
  await press(page, change);
  const roles = page.getByRole('dialog', { name: `Change roles of ${invitee.name}` });
  await press(page, roles.getByRole('button', { name: 'Add role' }));
  await press(page, roles.getByRole('combobox', { name: 'Policy of role 2' }));
  await press(page, page.getByRole('option', { name: 'MemberAdmin', exact: true }));
  await press(page, roles.getByRole('button', { name: 'Save roles' }));
  await expect(page.getByText(`Changed the roles of ${invitee.name}.`)).toBeVisible();
  expect(await listMembers()).toBe(200);
  await press(page, change);
  await press(page, roles.getByRole('button', { name: 'Remove role 2' }));
  await press(page, roles.getByRole('button', { name: 'Save roles' }));
  await expect(page.getByText(`Changed the roles of ${invitee.name}.`).last()).toBeVisible();
  await expect.poll(listMembers).toBe(403);

  // A bot with a role in the project.
  await page.goto(`/orgs/${orgId}/bots`);
  await press(page, page.getByRole('button', { name: 'New bot' }));
  await page.keyboard.type('deployer');
  await press(page, page.getByRole('combobox', { name: 'Policy of role 1' }));
  await press(page, page.getByRole('option', { name: 'QueuesEditor', exact: true }));
  await press(page, page.getByRole('combobox', { name: 'Scope of role 1' }));
  await press(page, page.getByRole('option', { name: 'Project Prod', exact: true }));
  await press(page, page.getByRole('button', { name: 'Create bot' }));
  await expect(page.getByText(/Created the bot deployer\./)).toBeVisible();
  await expect(page.getByRole('row', { name: /deployer/ })).toContainText('QueuesEditor in Prod');
  await page.screenshot({ path: 'test-results/screens/journey-bots.png' });
  await key.dispose();
  await session.dispose();
  await context.close();
});
