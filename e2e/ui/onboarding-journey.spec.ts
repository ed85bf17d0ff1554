import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { expectAccessible } from '../support/axe';
import { E2E } from '../support/env';
import { startPrometheus, type Prometheus } from '../support/prometheus';
import type { Spawned } from '../support/spawn-server';
import { newInstallation, Steps } from '../support/walk';
import { bearer } from '../fixtures';
import { PASSWORD, signedIn } from '../support/onboarding';

// Onboarding in a browser, the first hour of a new team, reading only what the screens say: a fresh PostgreSQL
// database with the demo off and no email set up, the setup URL from the log, the first admin signed in at once and
// guided by the overview, a project from the switcher, an invitation passed on by hand, the invitee's account (signed
// in at once), a role given and taken away as the invitee's key feels it, a bot with roles, Debian's Prometheus
// connected with the prometheus.yml the Alerts page gives, the colleague's silence previewed against its live alert,
// and a narrowed key editing that silence by the id its dialog shows, with curl and with amtool. It prints its time
// and its steps (each key a person presses on a control, or text typed into a field); docs/console.md keeps the
// latest figure. Its own server and database, both gone afterwards.

const run = promisify(execFile);
const SHOTS = 'test-results/screens';

const PORT = E2E.port + 90;
const admin = { name: 'First Admin', email: 'first@journey.test' };
const invitee = { name: 'Ivy Invited', email: 'ivy@journey.test' };
let server: Spawned;
let remove: (() => Promise<void>) | undefined;
let prometheus: Prometheus | undefined;
const steps = new Steps();

/**
 * A page as a person sees it: axe finds nothing at 1280 px in light (one layout per page here; console-axe.spec.ts
 * runs every page at both widths in both schemes), and nothing scrolls sideways at 1280 or 320 px.
 */
async function checkEverywhere(page: Page, what: string) {
  const size = page.viewportSize()!;
  for (const width of [1280, 320]) {
    await page.setViewportSize({ width, height: width === 320 ? 640 : 800 });
    if (width === 1280) await expectAccessible(page, `${what} at ${width} px, light`);
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(sideways, `${what} scrolls sideways at ${width} px`).toBe(false);
    await page.screenshot({ path: `${SHOTS}/${what.replace(/\W+/g, '-')}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize(size);
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  ({ server, remove } = await newInstallation(PORT, 'first_hour'));
});
test.afterAll(async () => {
  await prometheus?.stop();
  await remove?.();
});

test('the first hour: setup, a project, a colleague, Prometheus, a silence and a narrowed key editing it', async ({
  browser,
}) => {
  test.setTimeout(420_000);
  const started = Date.now();
  mkdirSync(SHOTS, { recursive: true });
  const setupUrl = /(http:\/\/\S+\/setup\?token=[A-Za-z0-9_-]{43})/.exec(server.output())?.[1];
  expect(setupUrl, server.output()).toBeDefined();
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: { width: 1280, height: 800 },
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const page = await context.newPage();

  // Without its token the setup page says which link to open; from the logged URL the form opens without a word in
  // red, and the first administrator ends signed in.
  await page.goto('/setup');
  await expect(page.getByRole('main').getByRole('alert')).toContainText('needs the setup link');
  await page.goto(setupUrl!);
  await expect(page.getByRole('main').getByRole('alert').filter({ hasText: /\S/ })).toHaveCount(0);
  await steps.typeInto(page, page.getByLabel('Your name'), admin.name);
  await steps.typeInto(page, page.getByLabel('Email'), admin.email);
  await steps.typeInto(page, page.getByLabel('Password'), PASSWORD);
  await steps.typeInto(page, page.getByLabel('Organization name'), 'Hooli');
  await expectAccessible(page, 'setup page');
  await page.screenshot({ path: `${SHOTS}/setup.png` });
  await steps.press(page, page.getByLabel('Organization name'));
  await expect(page).toHaveURL(/\/orgs\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  const orgId = /\/orgs\/([0-9a-f-]{36})/.exec(page.url())![1];

  // The overview says what comes next, from what the organization holds: nothing yet.
  const start = page.getByRole('region', { name: 'Get started' });
  await expect(start).toContainText('4 of 4 steps left');
  await expect(start.getByRole('link', { name: 'New project (step: A project with alerting)' })).toBeVisible();
  await checkEverywhere(page, 'overview get started');

  // The setup link, opened again, says the console is set up and where to sign in: no form.
  const later = await browser.newContext({ baseURL: server.url, viewport: { width: 320, height: 640 } });
  const laterPage = await later.newPage();
  await laterPage.goto(setupUrl!);
  await expect(laterPage.getByRole('heading', { level: 1, name: 'The console is set up' })).toBeVisible();
  await expect(laterPage.getByLabel('Your name')).toHaveCount(0);
  await expectAccessible(laterPage, 'setup link after setup');
  await laterPage.screenshot({ path: `${SHOTS}/setup-done-320.png` });
  await laterPage.getByRole('link', { name: 'Sign in' }).press('Enter');
  await expect(laterPage).toHaveURL(/\/login/);
  await later.close();

  // A project with alerting, from the switcher: the console goes into it.
  await steps.press(page, page.getByRole('button', { name: 'New project' }));
  await steps.typeInto(page, page.getByRole('dialog', { name: 'New project' }).getByLabel('Name'), 'Prod');
  await steps.press(page, page.getByLabel('Alerting on (silences and alerts)'), 'Space');
  await steps.press(page, page.getByRole('button', { name: 'Create project' }));
  await expect(page.getByText('Created the project Prod.')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/orgs/${orgId}/projects/[0-9a-f-]{36}/subscriptions$`));
  const projectId = /\/projects\/([0-9a-f-]{36})/.exec(page.url())![1];
  await expect(page.getByRole('combobox', { name: 'Project' })).toHaveText(/Prod/);

  // Back on the overview, the next step links to the page that takes it.
  await steps.press(page, page.getByRole('link', { name: 'Overview', exact: true }));
  await expect(start).toContainText('3 of 4 steps left');
  await expect(start.getByRole('listitem').filter({ hasText: 'A project with alerting' })).toContainText('Done.');
  await steps.press(page, start.getByRole('link', { name: 'Members (step: A colleague)' }));
  await expect(page).toHaveURL(`/orgs/${orgId}/members`);

  // No email is set up: the invitation's link is shown once, to pass on, and said so.
  const inviteButton = page.getByRole('button', { name: 'Invite', exact: true });
  await steps.press(page, inviteButton);
  await steps.typeInto(page, page.getByRole('dialog', { name: 'Invite a member' }).getByLabel('Email'), invitee.email);
  await steps.press(page, page.getByRole('button', { name: 'Send invitation' }));
  await expect(
    page.getByText(`Invited ${invitee.email}. No email was sent: pass on the link shown now.`),
  ).toBeVisible();
  const reveal = page.getByRole('dialog', { name: `Invitation link for ${invitee.email}` });
  await expect(reveal).toContainText('No email was sent: pass on this link, shown once.');
  await expect(reveal).not.toContainText('secrets manager');
  await expectAccessible(page, 'invitation link dialog');
  await page.screenshot({ path: `${SHOTS}/journey-invitation-link.png` });
  const link = await reveal.getByLabel('Invitation link', { exact: true }).inputValue();
  expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
  await steps.press(page, reveal.getByRole('button', { name: 'Copy' }));
  // Done before the copy is confirmed would ask whether to close uncopied.
  await expect(reveal.getByText('Copied to the clipboard.')).toBeVisible();
  await steps.press(page, reveal.getByRole('button', { name: 'Done' }));
  await expect(reveal).toBeHidden();
  await expect(inviteButton).toBeFocused();

  // The invitee makes the account from the link and is in the organization, signed in, on a phone.
  const theirs = await browser.newContext({
    baseURL: server.url,
    viewport: { width: 320, height: 640 },
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const theirPage = await theirs.newPage();
  await theirPage.goto(link);
  await steps.typeInto(theirPage, theirPage.getByLabel('Your name'), invitee.name);
  await steps.typeInto(theirPage, theirPage.getByLabel('Password'), PASSWORD);
  await steps.press(theirPage, theirPage.getByLabel('Password'));
  await expect(theirPage).toHaveURL(new RegExp(`/orgs/${orgId}$`));
  await expect(theirPage.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  // Not an admin: no guided start for them.
  await expect(theirPage.getByRole('region', { name: 'Get started' })).toHaveCount(0);

  // The invitee's key can read what BasicAccess gives, not the member list.
  const session: APIRequestContext = await signedIn(invitee.email, server.url);
  const made = await session.post(`/v1/organizations/${orgId}/api-keys`, { data: { name: 'ivy key' } });
  expect(made.status(), await made.text()).toBe(201);
  const key = await bearer(((await made.json()) as { secret: string }).secret, server.url);
  const listMembers = async () => (await key.get(`/v1/organizations/${orgId}/members`)).status();
  expect(await listMembers()).toBe(403);

  // MemberAdmin and SilencesEditor in Prod given in the console: the key feels MemberAdmin on its next request;
  // taken away, it is gone again, and SilencesEditor stays.
  await page.reload();
  const change = page.getByRole('button', { name: `Change roles of ${invitee.name}` });
  await steps.press(page, change);
  const roles = page.getByRole('dialog', { name: `Change roles of ${invitee.name}` });
  await steps.press(page, roles.getByRole('button', { name: 'Add role' }));
  await steps.press(page, roles.getByRole('combobox', { name: 'Policy of role 2' }));
  await steps.press(page, page.getByRole('option', { name: 'SilencesEditor', exact: true }));
  await steps.press(page, roles.getByRole('combobox', { name: 'Scope of role 2' }));
  await steps.press(page, page.getByRole('option', { name: 'Project Prod', exact: true }));
  await steps.press(page, roles.getByRole('button', { name: 'Add role' }));
  await steps.press(page, roles.getByRole('combobox', { name: 'Policy of role 3' }));
  await steps.press(page, page.getByRole('option', { name: 'MemberAdmin', exact: true }));
  await steps.press(page, roles.getByRole('button', { name: 'Save roles' }));
  await expect(page.getByText(`Changed the roles of ${invitee.name}.`)).toBeVisible();
  expect(await listMembers()).toBe(200);
  await steps.press(page, change);
  // Reopened, the roles are listed organization first: MemberAdmin is role 2 now.
  await expect(roles.getByRole('combobox', { name: 'Policy of role 2' })).toHaveText(/MemberAdmin/);
  await steps.press(page, roles.getByRole('button', { name: 'Remove role 2' }));
  await steps.press(page, roles.getByRole('button', { name: 'Save roles' }));
  await expect(page.getByText(`Changed the roles of ${invitee.name}.`).last()).toBeVisible();
  await expect.poll(listMembers).toBe(403);
  await expect(page.getByRole('row', { name: new RegExp(invitee.name) })).toContainText('SilencesEditor in Prod');

  // A bot with a role in the project.
  await steps.press(page, page.getByRole('link', { name: 'Bots', exact: true }));
  await steps.press(page, page.getByRole('button', { name: 'New bot' }));
  await steps.typeInto(page, page.getByRole('dialog', { name: 'New bot' }).getByLabel('Name'), 'deployer');
  await steps.press(page, page.getByRole('combobox', { name: 'Policy of role 1' }));
  await steps.press(page, page.getByRole('option', { name: 'QueuesEditor', exact: true }));
  await steps.press(page, page.getByRole('combobox', { name: 'Scope of role 1' }));
  await steps.press(page, page.getByRole('option', { name: 'Project Prod', exact: true }));
  await steps.press(page, page.getByRole('button', { name: 'Create bot' }));
  await expect(page.getByText(/Created the bot deployer\./)).toBeVisible();
  await expect(page.getByRole('row', { name: /deployer/ })).toContainText('QueuesEditor in Prod');
  await page.screenshot({ path: `${SHOTS}/journey-bots.png` });
  await key.dispose();
  await session.dispose();

  // The overview's next step is Prometheus, on the project's Alerts page: nothing received yet, so how to connect
  // a sender is open there.
  await steps.press(page, page.getByRole('link', { name: 'Overview', exact: true }));
  await expect(start).toContainText('2 of 4 steps left');
  await steps.press(page, start.getByRole('link', { name: 'Alerts (step: Prometheus connected)' }));
  await expect(page).toHaveURL(`/orgs/${orgId}/projects/${projectId}/alerts`);
  const connect = page.getByRole('region', { name: 'Connect a sender' });
  await expect(connect).toContainText('No alert post received yet.');
  await expect(connect.getByRole('button', { name: 'Connect a sender' })).toHaveAttribute('aria-expanded', 'true');
  await expect(connect).toContainText(`${server.url}/alertmanager/${orgId}/${projectId}`);
  await checkEverywhere(page, 'alerts connect a sender');

  // One step makes the sender: a bot with AlertSender here and its key, shown once and put into the snippet.
  await expect(connect.getByLabel('Bot name')).toHaveValue('prometheus-prod');
  await steps.press(page, connect.getByRole('button', { name: 'Make the sender bot and key' }));
  const senderKey = page.getByRole('dialog', { name: 'Key of the bot prometheus-prod' });
  await expect(senderKey).toBeVisible();
  await expectAccessible(page, 'sender key dialog');
  const secret = await senderKey.getByLabel('Sender key').inputValue();
  expect(secret).toMatch(/^svc_/);
  await steps.press(page, senderKey.getByRole('button', { name: 'Copy' }));
  await expect(senderKey.getByText('Copied to the clipboard.')).toBeVisible();
  await steps.press(page, senderKey.getByRole('button', { name: 'Done' }));
  await expect(senderKey).toBeHidden();
  await expect(connect).toContainText('Made the bot prometheus-prod (AlertSender in Prod)');
  const pasted = (await connect.locator('#sender-prometheus').textContent())!;
  expect(pasted).toContain(`credentials: ${secret}`);
  await steps.press(page, connect.getByRole('button', { name: /^Copy 2\. prometheus\.yml/ }));
  await page.screenshot({ path: `${SHOTS}/alerts-sender-made-1280.png`, fullPage: true });

  // Debian's Prometheus with exactly that section: its alert shows on the page, with the time of the last post.
  prometheus = await startPrometheus({
    alerting: pasted,
    alertname: 'JourneyAlwaysFiring',
    labels: { severity: 'page' },
    port: PORT + 1,
  });
  await expect(connect).toContainText('Last alert post received', { timeout: 30_000 });
  const firing = page.getByRole('region', { name: 'Firing' });
  await expect(firing.getByRole('button', { name: /^Silence JourneyAlwaysFiring alert/ })).toBeVisible({
    timeout: 15_000,
  });
  await page.screenshot({ path: `${SHOTS}/alerts-firing-1280.png`, fullPage: true });

  // The colleague, on a phone, silences it from the Alerts page: the editor already counts the live alert.
  const menu = async () => {
    await steps.press(theirPage, theirPage.getByRole('button', { name: 'Menu' }));
    return theirPage.getByRole('dialog', { name: 'Menu' });
  };
  await steps.press(theirPage, (await menu()).getByRole('link', { name: 'Alerts', exact: true }));
  await expect(theirPage).toHaveURL(`/orgs/${orgId}/projects/${projectId}/alerts`);
  await steps.press(theirPage, theirPage.getByRole('button', { name: /^Silence JourneyAlwaysFiring alert/ }));
  const editor = theirPage.getByRole('dialog', { name: 'New silence' });
  await expect(editor.getByTestId('affected-count')).toHaveText('(1)');
  await expect(editor.getByRole('status').filter({ hasText: 'would be muted' })).toHaveText(
    '1 alert would be muted now.',
  );
  await expect(editor.getByRole('region', { name: 'Affected alerts', exact: true })).toContainText(
    'JourneyAlwaysFiring',
  );
  await steps.typeInto(theirPage, editor.getByLabel('Comment'), 'deploying the first hour');
  await steps.press(theirPage, editor.getByRole('button', { name: 'Create silence' }));
  await expect(theirPage.getByText(/^Created silence sil_\w+: it is active\./)).toBeVisible();

  // Their narrowed key: obs.silences.get and obs.silences.update, in Prod only (the dialog offers the project).
  await steps.press(theirPage, (await menu()).getByRole('link', { name: 'API keys', exact: true }));
  await steps.press(theirPage, theirPage.getByRole('button', { name: 'Create API key' }).first());
  const create = theirPage.getByRole('dialog', { name: 'Create API key' });
  await steps.typeInto(theirPage, create.getByLabel('Name'), 'amtool');
  await steps.press(theirPage, create.getByRole('radio', { name: 'Restricted' }), 'Space');
  await steps.press(theirPage, create.getByRole('button', { name: 'Choose Prod' }));
  await steps.press(theirPage, create.getByRole('checkbox', { name: 'obs.silences.get' }), 'Space');
  await steps.press(theirPage, create.getByRole('checkbox', { name: 'obs.silences.update' }), 'Space');
  await steps.press(theirPage, create.getByRole('button', { name: 'Create key' }));
  const keyReveal = theirPage.getByRole('dialog', { name: 'Your new API key' });
  const amtoolKey = await keyReveal.getByLabel('API key').inputValue();
  await steps.press(theirPage, keyReveal.getByRole('button', { name: 'Copy' }));
  await expect(keyReveal.getByText('Copied to the clipboard.')).toBeVisible();
  await steps.press(theirPage, keyReveal.getByRole('button', { name: 'Done' }));
  await expect(keyReveal).toBeHidden();

  // The silence's id, as its dialog shows it with a copy button.
  await steps.press(theirPage, (await menu()).getByRole('link', { name: 'Silences', exact: true }));
  await steps.press(theirPage, theirPage.getByRole('button', { name: 'Edit silence: deploying the first hour' }));
  const silenceDialog = theirPage.getByRole('dialog', { name: 'Edit silence' });
  const silenceId = (await silenceDialog.locator('code').first().textContent())!.trim();
  expect(silenceId).toMatch(/^[0-9a-f-]{36}$/);
  await steps.press(theirPage, silenceDialog.getByRole('button', { name: /^Copy ID of silence sil_/ }));
  await expectAccessible(theirPage, 'silence dialog with its id');
  await theirPage.screenshot({ path: `${SHOTS}/silence-dialog-id-320.png`, fullPage: true });
  await steps.press(theirPage, silenceDialog.getByRole('button', { name: 'Cancel' }));

  // With curl, by that id: /v1 takes the key.
  const patched = await run('curl', [
    '-sS',
    '-X',
    'PATCH',
    '-H',
    `Authorization: Bearer ${amtoolKey}`,
    '-H',
    'Content-Type: application/json',
    '-d',
    JSON.stringify({ comment: 'edited with curl' }),
    '-w',
    '\n%{http_code}',
    `${server.url}/v1/organizations/${orgId}/projects/${projectId}/obs/silences/${silenceId}`,
  ]);
  expect(patched.stdout.trim().split('\n').at(-1), patched.stdout).toBe('200');

  // With amtool, configured by the Alerts page's amtool.yml with the key in its place.
  const amtoolYml = (await connect.locator('#sender-amtool').textContent())!.replace('<your API key>', amtoolKey);
  const home = mkdtempSync(path.join(os.tmpdir(), 'journey-amtool-'));
  mkdirSync(path.join(home, '.config', 'prometheus'), { recursive: true });
  writeFileSync(path.join(home, '.config', 'prometheus', 'amtool.yml'), `${amtoolYml}\n`);
  const updated = await run('amtool', ['silence', 'update', silenceId, '--comment=edited with amtool'], {
    env: { ...process.env, HOME: home },
    timeout: 20_000,
  });
  rmSync(home, { recursive: true, force: true });
  expect(updated.stdout).toMatch(new RegExp(`${silenceId} .+ Ivy Invited +edited with amtool`));
  await theirPage.reload();
  await expect(theirPage.getByRole('button', { name: 'Edit silence: edited with amtool' })).toBeVisible();

  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(`The first hour, as a browser walks it: ${steps.count} steps in ${seconds} s.`);

  // The guided start ends with the last step: a queue with a subscription (made through the API here).
  const adminApi = await signedIn(admin.email, server.url);
  const queue = await adminApi.post(`/v1/organizations/${orgId}/projects/${projectId}/queues`, {
    data: { name: 'orders' },
  });
  expect(queue.status(), await queue.text()).toBe(201);
  const subscription = await adminApi.post(`/v1/organizations/${orgId}/projects/${projectId}/subscriptions`, {
    data: {
      queueId: ((await queue.json()) as { id: string }).id,
      target: { kind: 'workflow', workflowId: randomUUID() },
    },
  });
  expect(subscription.status(), await subscription.text()).toBe(201);
  await adminApi.dispose();
  await page.goto(`/orgs/${orgId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  await expect(start).toHaveCount(0);
  await theirs.close();
  await context.close();
});
