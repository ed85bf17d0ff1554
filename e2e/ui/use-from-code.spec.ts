import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, loadDemo, sessionFor, test, type Demo } from '../fixtures';
import { createKey } from '../support/api-keys';
import { expectAccessible, switchScheme } from '../support/axe';
import { press, signInAs } from '../support/console';
import { createQueue, queueName, type Queue } from '../support/queues';
import { productionSilences, type Silence } from '../support/silences';
import { subsPath, type Sub } from '../support/subscriptions';

// "Use from code" beside a queue, a subscription, a silence and a new key: each request is read from the page (the
// clipboard and the text shown agree), only $SVC_API_KEY is given, by a key made with exactly the permissions the
// panel names, and it runs with the real client (curl, svc, amtool) and does what it says; a key without them is
// refused, so the hint is true. Each panel open passes axe at 1280 px light and 320 px dark and scrolls nothing
// sideways. Its own queue, subscription (a workflow's, which keeps its backlog) and silence.
test.describe.configure({ mode: 'serial', timeout: 240_000 });
test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

const run = promisify(execFile);
let ada: APIRequestContext;
let queue: Queue;
let sub: Sub;
let silence: Silence;
let home: string;

test.beforeAll(async () => {
  const demo = await loadDemo();
  ada = await sessionFor('ada');
  queue = await createQueue(ada, demo.acme, demo.production, { name: queueName('code') });
  const made = await ada.post(subsPath(demo.acme, demo.production), {
    data: { queueId: queue.id, target: { kind: 'workflow', workflowId: randomUUID() } },
  });
  expect(made.status(), await made.text()).toBe(201);
  sub = (await made.json()) as Sub;
  const silenced = await ada.post(productionSilences(demo), {
    data: {
      comment: 'use from code',
      matchers: [{ label: 'alertname', op: '=', value: `UseFromCode${randomUUID().slice(0, 8)}` }],
      endsAt: new Date(Date.now() + 3_600_000).toISOString(),
    },
  });
  expect(silenced.status(), await silenced.text()).toBe(201);
  silence = (await silenced.json()) as Silence;
  // `svc` as a person has it on PATH; HOME of its own, so neither svc nor amtool reads this machine's settings.
  home = mkdtempSync(path.join(os.tmpdir(), 'use-from-code-'));
  writeFileSync(path.join(home, 'svc'), `#!/bin/sh\nexec node ${path.resolve('cli/bin/svc.mjs')} "$@"\n`);
  chmodSync(path.join(home, 'svc'), 0o755);
});
test.afterAll(async () => {
  await ada.delete(`${subsPath(sub.organizationId, sub.projectId)}/${sub.id}`);
  await ada.delete(`/v1/organizations/${queue.organizationId}/projects/${queue.projectId}/queues/${queue.id}`);
  await ada.dispose();
  rmSync(home, { recursive: true, force: true });
});

/** Runs a line copied from the page in a shell, with only the key given. */
async function runCopied(line: string, key: string) {
  const env: Record<string, string> = {
    PATH: `${home}:${process.env.PATH}`,
    HOME: home,
    SVC_CONFIG_DIR: home,
    SVC_API_KEY: key,
  };
  return run('bash', ['-c', line], { env: env as NodeJS.ProcessEnv, timeout: 60_000 }).then(
    (out) => ({ code: 0, ...out }),
    (err: { code: number; stdout: string; stderr: string }) => ({
      code: err.code,
      stdout: err.stdout,
      stderr: err.stderr,
    }),
  );
}

const json = (text: string) => JSON.parse(text) as Record<string, unknown> & { error?: { code: string } };

/** A key of exactly these permissions in Production, made through the API. */
async function keyWith(demo: Demo, permissions: string[]): Promise<string> {
  const name = `code ${permissions.join(' ')}`.slice(0, 60);
  return (await createKey(ada, demo.acme, { name, permissions, projectIds: [demo.production] })).secret;
}

/** Opens the panel by keyboard: its button says it is open, and Tab reaches the first copy button. */
async function openPanel(page: Page, panel: Locator) {
  const toggle = panel.getByRole('button', { name: 'Use from code' });
  await press(page, toggle);
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Tab');
  await expect(panel.getByRole('button', { name: /^Copy / }).first()).toBeFocused();
}

/** The open panel at 1280 px light and 320 px dark: axe finds nothing, nothing scrolls sideways; photographed. */
async function checkPanel(page: Page, panel: Locator, what: string) {
  for (const [width, scheme] of [
    [1280, 'light'],
    [320, 'dark'],
  ] as const) {
    await page.setViewportSize({ width, height: width === 320 ? 640 : 800 });
    await switchScheme(page, scheme);
    await expectAccessible(page, `${what} at ${width} px, ${scheme}`);
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(sideways, `${what} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
    await panel.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath(`${what.replace(/\W+/g, '-')}-${width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await switchScheme(page, 'light');
}

/** A snippet as shown, and as its copy button puts it on the clipboard (the same text), announced "Copied". */
async function copied(page: Page, panel: Locator, id: string): Promise<string> {
  const figure = panel.locator('figure').filter({ has: page.locator(`#${id}`) });
  const shown = (await page.locator(`#${id}`).textContent())!;
  const copy = figure.getByRole('button', { name: /^Copy / });
  await press(page, copy);
  await expect(copy).toHaveText('Copied');
  await expect(figure.getByRole('status')).toHaveText(/^Copied /);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown);
  expect(shown).not.toMatch(/svc_[A-Za-z0-9]/);
  return shown;
}

/** The permissions a panel names for one client ("curl: a key with a and b in this project."). */
async function named(panel: Locator, what: string): Promise<string[]> {
  const line = panel.getByRole('listitem').filter({ hasText: new RegExp(`^${what}`) });
  const names = (await line.locator('.font-mono').textContent())!;
  return names.split(/, | and /);
}

test('the queue: JSON, a CloudEvent and svc publish with a key of exactly what the panel names', async ({
  page,
  demo,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAs(page, 'ada');
  await page.goto(`/orgs/${demo.acme}/projects/${demo.production}/queues/${queue.id}`);
  const panel = page.getByRole('region', { name: 'Use from code' });
  await openPanel(page, panel);
  const url = `${new URL(page.url()).origin}/v1/organizations/${demo.acme}/projects/${demo.production}/queues/${queue.slug}/messages`;
  const jsonLine = await copied(page, panel, 'code-publish-json');
  const eventLine = await copied(page, panel, 'code-publish-cloudevent');
  const svcLine = await copied(page, panel, 'code-publish-svc');
  // The URL alone, for a CloudEvents SDK (five-minute-walk.spec.ts sends one there).
  expect(await copied(page, panel, 'code-publish-url')).toBe(url);
  expect(jsonLine).toContain(url);
  expect(eventLine).toContain("-H 'Content-Type: application/cloudevents+json'");
  expect(svcLine).toMatch(new RegExp(`svc queues publish ${queue.slug} `));
  await checkPanel(page, panel, 'queue use from code');

  const forCurl = await named(panel, 'curl');
  const forSvc = await named(panel, 'svc');
  expect(forCurl).toEqual(['queues.messages.publish']);
  expect(forSvc).toEqual(['queues.messages.publish', 'queues.queues.get']);
  const curlKey = await keyWith(demo, forCurl);
  const svcKey = await keyWith(demo, forSvc);

  const published = json((await runCopied(jsonLine, curlKey)).stdout);
  expect(published.messageIds).toHaveLength(1);
  const event = json((await runCopied(eventLine, curlKey)).stdout);
  expect(event.messageIds).toHaveLength(1);
  const bySvc = await runCopied(svcLine, svcKey);
  expect(bySvc.code, bySvc.stderr).toBe(0);
  expect(bySvc.stdout.trim()).toMatch(/^[0-9a-f-]{36}$/);

  // Without the permission named: curl is refused, and svc with curl's key cannot read the queue first.
  const without = await keyWith(demo, ['queues.queues.get']);
  expect(json((await runCopied(jsonLine, without)).stdout).error?.code).toBe('key_scope_insufficient');
  const svcWithout = await runCopied(svcLine, curlKey);
  expect(svcWithout.code).toBe(1);

  // All three reached the subscription's backlog: the JSON body, the event in structured form, svc's body.
  const activity = await ada.get(`${subsPath(demo.acme, demo.production)}/${sub.id}/activity`);
  expect(((await activity.json()) as { backlog: { ready: number } }).backlog.ready).toBe(3);
  await expect(page.getByTestId(`subscription-${sub.slug}`).getByRole('cell').nth(2)).toHaveText('3');
});

test('the subscription: its status and backlog read with a key of exactly what the panel names', async ({
  page,
  demo,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAs(page, 'ada');
  await page.goto(`/orgs/${demo.acme}/projects/${demo.production}/subscriptions/${sub.slug}`);
  const panel = page.getByRole('region', { name: 'Use from code' });
  await openPanel(page, panel);
  const statusLine = await copied(page, panel, 'code-subscription-status');
  const activityLine = await copied(page, panel, 'code-subscription-activity');
  expect(statusLine).toContain(`/subscriptions/${sub.slug} `);
  await checkPanel(page, panel, 'subscription use from code');

  const permissions = await named(panel, 'Both');
  expect(permissions).toEqual(['queues.subscriptions.get']);
  const key = await keyWith(demo, permissions);
  const status = json((await runCopied(statusLine, key)).stdout);
  expect(status).toMatchObject({ id: sub.id, slug: sub.slug, state: 'active' });
  const activity = json((await runCopied(activityLine, key)).stdout) as { backlog?: { ready: number } };
  expect(activity.backlog?.ready).toBe(3);

  const without = await keyWith(demo, ['queues.messages.publish']);
  expect(json((await runCopied(statusLine, without)).stdout).error?.code).toBe('key_scope_insufficient');
});

test('the silence: curl and amtool change it with keys of exactly what the panel names', async ({ page, demo }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAs(page, 'ada');
  await page.goto(`/orgs/${demo.acme}/projects/${demo.production}/silences?open=${silence.id}`);
  const dialog = page.getByRole('dialog', { name: 'Edit silence' });
  const panel = dialog.getByRole('region', { name: 'Use from code' });
  await openPanel(page, panel);
  const curlLine = await copied(page, panel, 'code-silence-curl');
  const amtoolLine = await copied(page, panel, 'code-silence-amtool');
  expect(curlLine).toContain(`/obs/silences/${silence.slug} `);
  expect(curlLine).toContain(`-H 'If-Match: "${silence.version}"'`);
  expect(amtoolLine).toContain(`/alertmanager/${demo.acme}/${demo.production}"`);
  await checkPanel(page, panel, 'silence use from code');

  const forCurl = await named(panel, 'curl');
  const forAmtool = await named(panel, 'amtool');
  expect(forCurl).toEqual(['obs.silences.update']);
  expect(forAmtool).toEqual(['obs.silences.get', 'obs.silences.update']);
  const read = async () =>
    (await (await ada.get(`${productionSilences(demo)}/${silence.id}`)).json()) as Pick<Silence, 'comment'>;

  // Without what each needs, nothing changes: curl is refused, and amtool cannot read the silence first.
  const reader = await keyWith(demo, ['obs.silences.get']);
  expect(json((await runCopied(curlLine, reader)).stdout).error?.code).toBe('key_scope_insufficient');
  const curlKey = await keyWith(demo, forCurl);
  expect((await runCopied(amtoolLine, curlKey)).code).not.toBe(0);
  expect((await read()).comment).toBe('use from code');

  const patched = json((await runCopied(curlLine, curlKey)).stdout);
  expect(patched).toMatchObject({ id: silence.id, comment: 'Changed with curl' });
  const byAmtool = await runCopied(amtoolLine, await keyWith(demo, forAmtool));
  expect(byAmtool.code, byAmtool.stderr).toBe(0);
  expect((await read()).comment).toBe('Changed with amtool');
});

test('a new key: made from the queue panel’s link, its first call answers what it may do', async ({ page, demo }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAs(page, 'ada');
  await page.goto(`/orgs/${demo.acme}/projects/${demo.production}/queues/${queue.id}`);
  const queuePanel = page.getByRole('region', { name: 'Use from code' });
  await openPanel(page, queuePanel);
  const jsonLine = await copied(page, queuePanel, 'code-publish-json');
  await press(page, queuePanel.getByRole('link', { name: 'Create a key that may do this' }));

  // The create dialog opens restricted to what the panel named, in this project.
  const create = page.getByRole('dialog', { name: 'Create API key' });
  await expect(create).toBeVisible();
  await expect(create.getByRole('radio', { name: 'Restricted' })).toBeChecked();
  await expect(create.getByRole('checkbox', { name: 'queues.messages.publish' })).toBeChecked();
  await expect(create.getByRole('checkbox', { name: 'queues.queues.get' })).toBeChecked();
  await create.getByLabel('Name').fill(`first call ${randomUUID().slice(0, 8)}`);
  await press(page, create.getByRole('button', { name: 'Create key' }));

  const reveal = page.getByRole('dialog', { name: 'Your new API key' });
  const secret = await reveal.getByLabel('API key').inputValue();
  const panel = reveal.getByRole('region', { name: 'Use from code' });
  await openPanel(page, panel);
  const shown = (await page.locator('#code-first-call').textContent())!;
  expect(shown).toBe(`curl ${new URL(page.url()).origin}/v1/api-key \\\n  -H 'Authorization: Bearer ${secret}'`);
  await expect(panel.getByRole('listitem')).toHaveText(
    'This call: any key, restricted or not; it needs no permission.',
  );
  await checkPanel(page, panel, 'new key use from code');

  const first = await run('bash', ['-c', shown], { timeout: 30_000 });
  const answer = JSON.parse(first.stdout) as { effective: { permission: string; projectId: string | null }[] };
  expect(answer.effective.toSorted((a, b) => a.permission.localeCompare(b.permission))).toEqual([
    { permission: 'queues.messages.publish', projectId: demo.production },
    { permission: 'queues.queues.get', projectId: demo.production },
  ]);
  // The key the link made publishes with the queue panel's line.
  expect(json((await runCopied(jsonLine, secret)).stdout).messageIds).toHaveLength(1);
});
