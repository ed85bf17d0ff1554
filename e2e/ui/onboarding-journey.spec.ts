import type { APIRequestContext, Locator, Page } from '@playwright/test';
import pg from 'pg';
import { expect, test } from '../fixtures';
import { E2E } from '../support/env';
import { startSmtp } from '../support/smtp-receiver';
import { spawnServer, type Spawned } from '../support/spawn-server';
import { bearer } from '../fixtures';
import { PASSWORD, signedIn } from '../support/onboarding';

// Issue 56 in a browser: a fresh PostgreSQL database with the demo off, the setup URL from the log, the first admin,
// an organization and project, an invitation by email, the invitee's account, a role given and taken away as the
// invitee's key feels it, and a bot with roles. Its own server, database and mail sink, all gone afterwards.

const PORT = E2E.port + 90;
const SMTP_PORT = E2E.port + 91;
const database = `c56_journey_${process.pid}`;
const admin = { name: 'First Admin', email: 'first@journey.test' };
const invitee = { name: 'Ivy Invited', email: 'ivy@journey.test' };
let server: Spawned;
let smtp: Awaited<ReturnType<typeof startSmtp>>;

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
  smtp = await startSmtp(SMTP_PORT);
  server = await spawnServer(PORT, {
    DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${database}`,
    NEXTAUTH_URL: `http://127.0.0.1:${PORT}`,
    SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
    RATE_LIMIT_NAMESPACE: `c56-journey-${Date.now()}-`,
  });
});
test.afterAll(async () => {
  await server?.stop();
  await smtp?.close();
  await onPostgres(`drop database if exists ${database} with (force)`);
});

test('from nothing: setup, organization and project, an invitation by email, roles felt by a key, a bot', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const setupUrl = /(http:\/\/\S+\/setup\?token=[A-Za-z0-9_-]{43})/.exec(server.output())?.[1];
  expect(setupUrl, server.output()).toBeDefined();
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();

  // The first administrator, from the logged URL; then signing in as anyone does.
  await page.goto(setupUrl!);
  await typeInto(page, page.getByLabel('Your name'), admin.name);
  await typeInto(page, page.getByLabel('Email'), admin.email);
  await typeInto(page, page.getByLabel('Password'), PASSWORD);
  await typeInto(page, page.getByLabel('Organization name'), 'Hooli');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toContainText('The console is set up');
  await typeInto(page, page.getByLabel('Email'), admin.email);
  await typeInto(page, page.getByLabel('Password'), PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  const orgId = /\/orgs\/([0-9a-f-]{36})/.exec(page.url())![1];

  // A project, from Settings.
  await page.goto(`/orgs/${orgId}/settings`);
  await press(page, page.getByRole('button', { name: 'New project' }));
  await page.keyboard.type('Prod');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Created the project Prod.')).toBeVisible();

  // The invitation goes by email; the invitee makes the account from the mailed link.
  await page.goto(`/orgs/${orgId}/members`);
  await press(page, page.getByRole('button', { name: 'Invite', exact: true }));
  await page.keyboard.type(invitee.email);
  await press(page, page.getByRole('button', { name: 'Send invitation' }));
  await expect(page.getByText(`Invited ${invitee.email}; the link went by email.`)).toBeVisible();
  await expect.poll(() => smtp.to(invitee.email, '/invite/').length).toBe(1);
  const link = /(https?:\/\/\S+\/invite\/[A-Za-z0-9_-]{43})/.exec(smtp.to(invitee.email, '/invite/')[0].raw)![1];
  const theirs = await browser.newContext({ viewport: { width: 320, height: 640 } });
  const theirPage = await theirs.newPage();
  await theirPage.goto(link);
  await typeInto(theirPage, theirPage.getByLabel('Your name'), invitee.name);
  await typeInto(theirPage, theirPage.getByLabel('Password'), PASSWORD);
  await theirPage.keyboard.press('Enter');
  await expect(theirPage.getByRole('status')).toContainText('you have joined');
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
