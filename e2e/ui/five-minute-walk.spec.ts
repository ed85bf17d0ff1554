import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Locator, Page } from '@playwright/test';
import { CloudEvent, HTTP } from 'cloudevents';
import { expect, test } from '../fixtures';
import { E2E } from '../support/env';
import { PASSWORD } from '../support/onboarding';
import { startQueueReceiver, until, type QueueReceiver } from '../support/queue-receiver';
import type { Spawned } from '../support/spawn-server';
import { newInstallation, Steps } from '../support/walk';

// The five-minute path, from where setup and the first project leave a person (signed in, in a project with
// alerting on, on an empty PostgreSQL database): a queue made in the console, a subscription to a receiver on
// 127.0.0.1 that verifies signatures with the secret copied from the console, the curl line copied from the queue's
// "Use from code" run with the key its link makes, a CloudEvent sent by the cloudevents SDK to the URL the panel
// shows, and amtool configured by the Alerts page's amtool.yml with the key its link makes, adding and listing a
// silence. Every URL, id and key comes from the page or the clipboard. It counts what a person does (a key pressed
// on a control, a field filled, a copy, a paste, a command run) and prints its time; docs/console.md keeps the
// figure. No axe here (console-axe.spec.ts and the pages' own specs check them), one viewport. Its own server,
// database and receiver, all gone afterwards.

const run = promisify(execFile);
const PORT = E2E.port + 92;
const admin = { name: 'Walk Admin', email: 'admin@walk.test' };
let server: Spawned;
let remove: (() => Promise<void>) | undefined;
let receiver: QueueReceiver;
let home: string;
const steps = new Steps();

/** What the last copy put on the clipboard. */
const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

/** A secret shown once: its Copy pressed, what it copied read from the clipboard, then Done. */
async function copyAndClose(page: Page, reveal: Locator): Promise<string> {
  await steps.press(page, reveal.getByRole('button', { name: 'Copy' }));
  await expect(reveal.getByText('Copied to the clipboard.')).toBeVisible();
  const copied = await clipboard(page);
  await steps.press(page, reveal.getByRole('button', { name: 'Done' }));
  await expect(reveal).toBeHidden();
  return copied;
}

/** A pasted line run in a terminal, with the key the person exported. */
async function terminal(line: string, env: Record<string, string>) {
  steps.add();
  return run('bash', ['-c', line], { env: { ...process.env, HOME: home, USER: 'walk', ...env }, timeout: 30_000 });
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  ({ server, remove } = await newInstallation(PORT, 'walk', { WEBHOOK_ALLOW_LOOPBACK: '1' }));
  receiver = await startQueueReceiver(PORT + 1);
  home = mkdtempSync(path.join(os.tmpdir(), 'five-minute-walk-'));
});
test.afterAll(async () => {
  await receiver?.close();
  await remove?.();
  if (home) rmSync(home, { recursive: true, force: true });
});

test('the five-minute walk: a queue, a signed subscription, curl, a CloudEvent and amtool from what the screens offer', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: { width: 1280, height: 800 },
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const page = await context.newPage();

  // Before the walk: setup from the logged link and the first project, with alerting, from the switcher.
  const setupUrl = /(http:\/\/\S+\/setup\?token=[A-Za-z0-9_-]{43})/.exec(server.output())?.[1];
  expect(setupUrl, server.output()).toBeDefined();
  await page.goto(setupUrl!);
  await page.getByLabel('Your name').fill(admin.name);
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByLabel('Organization name').fill('Hooli');
  await page.getByLabel('Organization name').press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  await page.getByRole('button', { name: 'New project' }).click();
  await page.getByRole('dialog', { name: 'New project' }).getByLabel('Name').fill('Prod');
  await page.getByLabel('Alerting on (silences and alerts)').check();
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page.getByText('Created the project Prod.')).toBeVisible();
  await expect(page).toHaveURL(/\/projects\/[0-9a-f-]{36}\/subscriptions$/);

  const started = Date.now();
  const nav = page.getByRole('navigation', { name: 'Console' });

  // A queue, and its page from the toast.
  await steps.press(page, nav.getByRole('link', { name: 'Queues', exact: true }));
  await steps.press(page, page.getByRole('button', { name: 'New queue' }));
  await steps.typeInto(page, page.getByRole('dialog', { name: 'New queue' }).getByLabel('Name'), 'orders');
  await steps.press(page, page.getByRole('button', { name: 'Create queue' }));
  await steps.press(page, page.getByRole('link', { name: 'Open the queue' }));
  await expect(page.getByRole('heading', { level: 1, name: 'orders' })).toBeVisible();

  // A subscription to the receiver, which verifies each batch with the secret copied from the reveal (one paste).
  const subscribe = page.getByRole('button', { name: 'New subscription' });
  await steps.press(page, subscribe);
  await steps.typeInto(
    page,
    page.getByRole('dialog', { name: 'New subscription to orders' }).getByLabel('Target URL'),
    receiver.url,
  );
  await steps.press(page, page.getByRole('button', { name: 'Create subscription' }));
  const secretReveal = page.getByRole('dialog', { name: "The subscription's signing secret" });
  const signingSecret = await copyAndClose(page, secretReveal);
  expect(signingSecret).toMatch(/^whsec_/);
  receiver.verifyWith(signingSecret);
  steps.add();

  // "Use from code": its link makes the key the panel names; the key goes to the terminal (export, one paste).
  const panel = page.getByRole('region', { name: 'Use from code' });
  await steps.press(page, panel.getByRole('button', { name: 'Use from code' }));
  await steps.press(page, panel.getByRole('link', { name: 'Create a key that may do this' }));
  const create = page.getByRole('dialog', { name: 'Create API key' });
  await expect(create.getByRole('radio', { name: 'Restricted' })).toBeChecked();
  await steps.typeInto(page, create.getByLabel('Name'), 'orders publisher');
  await steps.press(page, create.getByRole('button', { name: 'Create key' }));
  const keyReveal = page.getByRole('dialog', { name: 'Your new API key' });
  const publisherKey = await copyAndClose(page, keyReveal);
  expect(publisherKey).toMatch(/^svc_/);
  steps.add();

  // Back on the queue's page, the curl line copied and run.
  await page.goBack();
  steps.add();
  await expect(page.getByRole('heading', { level: 1, name: 'orders' })).toBeVisible();
  // Opened again, unless the page kept it open.
  const toggle = panel.getByRole('button', { name: 'Use from code' });
  if ((await toggle.getAttribute('aria-expanded')) === 'false') await steps.press(page, toggle);
  const copy = async (id: string) => {
    const figure = panel.locator('figure').filter({ has: page.locator(`#${id}`) });
    await steps.press(page, figure.getByRole('button', { name: /^Copy / }));
    await expect(figure.getByRole('status')).toHaveText(/^Copied /);
    return clipboard(page);
  };
  const curlLine = await copy('code-publish-json');
  const curled = await terminal(curlLine, { SVC_API_KEY: publisherKey });
  expect((JSON.parse(curled.stdout) as { messageIds: string[] }).messageIds, curled.stdout).toHaveLength(1);

  // The cloudevents SDK's binary mode to the URL the panel shows, with the same key.
  const messagesUrl = await copy('code-publish-url');
  expect(messagesUrl).toMatch(/\/v1\/.+\/queues\/que_[^/]+\/messages$/);
  const event = new CloudEvent({
    source: '/walk/orders',
    type: 'com.example.order.created',
    data: { order: 8 },
  });
  const message = HTTP.binary(event);
  steps.add();
  const sent = await fetch(messagesUrl, {
    method: 'POST',
    headers: { ...(message.headers as Record<string, string>), Authorization: `Bearer ${publisherKey}` },
    body: message.body as string,
  });
  expect(sent.status, await sent.clone().text()).toBe(202);
  expect(((await sent.json()) as { messageIds: string[] }).messageIds).toHaveLength(1);

  // The receiver has both, signed with the copied secret.
  await until(() => receiver.state.batches.flatMap((b) => b.messages).length >= 2, 30_000);
  expect(receiver.state.badSignatures).toBe(0);
  const bodies = receiver.state.batches.flatMap((b) => b.messages.map((m) => m.body));
  expect(bodies).toEqual(
    expect.arrayContaining([
      { order: 7 },
      expect.objectContaining({ id: event.id, source: '/walk/orders', data: { order: 8 } }),
    ]),
  );

  // amtool: the Alerts page's amtool.yml pasted into its file, and the key its link makes pasted into its place.
  await steps.press(page, nav.getByRole('link', { name: 'Alerts', exact: true }));
  const connect = page.getByRole('region', { name: 'Connect a sender' });
  await steps.press(page, connect.getByRole('button', { name: /^Copy 3\. / }));
  const amtoolYml = await clipboard(page);
  expect(amtoolYml).toContain('<your API key>');
  steps.add();
  await steps.press(page, connect.getByRole('link', { name: 'Create a key for amtool' }));
  await expect(create.getByRole('checkbox', { name: 'obs.silences.list' })).toBeChecked();
  await steps.typeInto(page, create.getByLabel('Name'), 'amtool');
  await steps.press(page, create.getByRole('button', { name: 'Create key' }));
  const amtoolKey = await copyAndClose(page, keyReveal);
  mkdirSync(path.join(home, '.config', 'prometheus'), { recursive: true });
  writeFileSync(
    path.join(home, '.config', 'prometheus', 'amtool.yml'),
    `${amtoolYml.replace('<your API key>', amtoolKey)}\n`,
  );
  steps.add();
  const added = await terminal("amtool silence add alertname=FiveMinuteWalk --comment='the five-minute walk'", {});
  const silenceId = added.stdout.trim();
  expect(silenceId).toMatch(/^[0-9a-f-]{36}$/);
  const queried = await terminal('amtool silence query', {});
  expect(queried.stdout.split('\n').find((line) => line.startsWith(silenceId))).toContain('the five-minute walk');

  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(`The five-minute walk: ${steps.count} steps in ${seconds} s.`);
  expect(steps.count).toBeLessThanOrEqual(40);
  await context.close();
});
