import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test, type Demo } from '../fixtures';
import { expectAccessible, expectAccessibleInBothSchemes } from '../support/axe';
import { press, rotateSigningSecret, signInAs } from '../support/console';
import { E2E } from '../support/env';
import { startQueueReceiver, until, type QueueReceiver } from '../support/queue-receiver';
import { queueName, queueNamed, queuesPath } from '../support/queues';
import { listSubs, loadDemoSubs, subsPath, type Sub } from '../support/subscriptions';

// The queue pages, walked by keyboard as bob (QueuesEditor in Production) at a desktop's and a phone's
// width: a queue, a subscription to a real receiver on 127.0.0.1 (the test server runs with
// WEBHOOK_ALLOW_LOOPBACK=1), publishing, deliveries as they happen, a failing receiver, dead letters redriven.
// Long walks with axe analyses in both schemes on a shared machine.
test.describe.configure({ mode: 'serial', timeout: 300_000 });
test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

let receiver: QueueReceiver;
test.beforeAll(async () => {
  receiver = await startQueueReceiver(E2E.port + 85);
});
test.afterAll(() => receiver.close());

/** Replaces a focused field's text, by keyboard. */
async function retype(page: Page, field: Locator, text: string) {
  await field.focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(text);
}

async function noSidewaysScroll(page: Page, what: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${what} scrolls sideways`).toBeLessThanOrEqual(0);
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });

type Activity = {
  backlog: { ready: number; delayed: number; inFlight: number; deadLettered: number };
  minutes: { delivered: number; failed: number }[];
};
const activityOf = async (api: APIRequestContext, demo: Demo, subId: string) =>
  (await (await api.get(`${subsPath(demo.acme, demo.production)}/${subId}/activity`)).json()) as Activity;

for (const width of [1280, 320] as const) {
  test(`bob makes a queue and a subscription, publishes, and watches deliveries fail and recover, by keyboard at ${width} px`, async ({
    page,
    demo,
    as,
  }) => {
    const bob = await as('bob');
    const name = queueName(`ui-${width}`);
    receiver.reset();
    receiver.respond(() => ({ status: 204 }));
    const published: string[] = [];
    page.on('request', (req) => {
      if (req.method() === 'POST' && req.url().endsWith('/messages')) published.push(req.postData() ?? '');
    });
    await page.setViewportSize({ width, height: 800 });
    await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
    await signInAs(page, 'bob');

    // Queues, from the project's navigation (the phone's menu at 320 px).
    if (width === 320) await press(page, page.getByRole('button', { name: 'Menu' }));
    const nav = page.getByRole('navigation', { name: 'Console' });
    await press(page, nav.getByRole('link', { name: 'Queues' }));
    await expect(page.getByRole('heading', { level: 1, name: 'Queues' })).toBeVisible();
    await expect(page).toHaveURL(`/orgs/${demo.acme}/projects/${demo.production}/queues`);
    // The demo's queue with its subscriptions (three, and any another suite left).
    await expect(page.getByTestId('queue-orders').getByRole('cell').first()).toHaveText(/^\d+$/);
    await noSidewaysScroll(page, 'queues page');
    await expectAccessibleInBothSchemes(page, `queues page at ${width} px`);

    // New queue: a name the project has is said under Name; a new one is made and listed.
    const newQueue = page.getByRole('button', { name: 'New queue' });
    await press(page, newQueue);
    const create = page.getByRole('dialog', { name: 'New queue' });
    await expect(create.getByLabel('Name')).toBeFocused();
    await page.keyboard.type('orders');
    await press(page, create.getByRole('button', { name: 'Create queue' }));
    await expect(create.locator('#queue-name-error')).toContainText('orders');
    await expect(create.getByLabel('Name')).toBeFocused();
    await expectAccessible(page, `new queue dialog with a taken name at ${width} px`);
    await retype(page, create.getByLabel('Name'), name);
    await press(page, create.getByRole('button', { name: 'Create queue' }));
    await expect(create).toBeHidden();
    await expect(page.getByText(`Created the queue ${name}.`)).toBeVisible();
    await expect(newQueue).toBeFocused();
    // The toast links to the new queue's page, and Back returns to the list.
    await page.screenshot({ path: `test-results/screens/toast-link-${width}.png` });
    await page.getByRole('link', { name: 'Open the queue' }).click();
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/projects/${demo.production}/queues/[0-9a-f-]{36}$`));
    await page.goBack();
    const row = page.getByTestId(`queue-${name}`);
    await expect(row.getByRole('cell').nth(0)).toHaveText('0');
    await expect(row.getByRole('cell').nth(2)).toHaveText('None waiting');
    await expect(row.getByRole('cell').nth(3)).toHaveText('4 days');
    await shot(page, `queues-${width}`);

    // Its page: the id the API takes, copied.
    await press(page, row.getByRole('link', { name }));
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    const queueId = /\/queues\/([0-9a-f-]{36})$/.exec(page.url())![1];
    await press(page, page.getByRole('button', { name: 'Copy ID of the queue' }));
    await expect(page.getByText('Copied ID of the queue.')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(queueId);
    await expect(page.getByRole('heading', { name: 'No subscriptions yet' })).toBeVisible();

    // New subscription to the receiver, three attempts a second apart; its secret shown once.
    const subscribe = page.getByRole('button', { name: 'New subscription' });
    await press(page, subscribe);
    const form = page.getByRole('dialog', { name: `New subscription to ${name}` });
    await expect(form.getByLabel('Target URL')).toBeFocused();
    await page.keyboard.type(receiver.url);
    await retype(page, form.getByLabel('Max attempts'), '3');
    await retype(page, form.getByLabel('Min backoff (seconds)'), '0');
    await retype(page, form.getByLabel('Max backoff (seconds)'), '1');
    await expectAccessible(page, `new subscription dialog at ${width} px`);
    await press(page, form.getByRole('button', { name: 'Create subscription' }));
    const reveal = page.getByRole('dialog', { name: "The subscription's signing secret" });
    const secret = await reveal.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await press(page, reveal.getByRole('button', { name: 'Copy' }));
    await expect(reveal.getByText('Copied to the clipboard.')).toBeVisible();
    await press(page, reveal.getByRole('button', { name: 'Done' }));
    await expect(reveal).toBeHidden();
    await expect(subscribe).toBeFocused();
    await expect(page.getByText(secret)).toHaveCount(0);
    receiver.verifyWith(secret);
    const [sub] = (await listSubs(bob, demo.acme, demo.production)).filter((s: Sub) => s.queueId === queueId);
    expect(JSON.stringify(sub)).not.toContain(secret.slice(6));
    // The toast links to the new subscription's page.
    await page.getByRole('link', { name: 'Open the subscription' }).click();
    await expect(page).toHaveURL(`/orgs/${demo.acme}/projects/${demo.production}/subscriptions/${sub.id}`);
    await expect(page.getByRole('heading', { level: 1, name: `Subscription ${sub.slug}` })).toBeVisible();
    await page.goBack();
    const subRow = page.getByTestId(`subscription-${sub.slug}`);
    await expect(subRow).toContainText('Healthy');
    await expect(subRow.locator('td[data-label="In flight"]')).toHaveText('0 of 100');
    await noSidewaysScroll(page, 'queue page');
    await expectAccessibleInBothSchemes(page, `queue page at ${width} px`);
    await shot(page, `queue-${width}`);

    // Publish: broken JSON is said at its field as it is typed, and nothing is sent.
    const publishButton = page.getByRole('button', { name: 'Publish message' });
    await press(page, publishButton);
    const publish = page.getByRole('dialog', { name: `Publish to ${name}` });
    const body = publish.getByLabel('Body (JSON)');
    await expect(body).toBeFocused();
    await retype(page, body, '{"order": 7,}');
    await expect(publish.locator('#message-body-error')).toHaveText(
      'This is not valid JSON: expected double-quoted property name (line 1, column 13).',
    );
    await expect(body).toHaveAttribute('aria-invalid', 'true');
    await expectAccessible(page, `publish dialog with broken JSON at ${width} px`);
    await press(page, publish.getByRole('button', { name: 'Publish', exact: true }));
    await expect(body).toBeFocused();
    await expect(publish).toBeVisible();
    expect(published).toEqual([]);
    expect((await activityOf(bob, demo, sub.id)).backlog).toMatchObject({ ready: 0, delayed: 0, inFlight: 0 });

    // Fixed, with an attribute: published, delivered, signed.
    await retype(page, body, '{"order": 7}');
    await expect(publish.locator('#message-body-error')).toHaveText('');
    await press(page, publish.getByRole('button', { name: 'Add attribute' }));
    await expect(publish.getByLabel('Name 1')).toBeFocused();
    await page.keyboard.type('kind');
    await publish.getByLabel('Value 1').focus();
    await page.keyboard.type('ui-test');
    await press(page, publish.getByRole('button', { name: 'Publish', exact: true }));
    await expect(publish).toBeHidden();
    await expect(page.getByText(new RegExp(`Published message [0-9a-f-]{36} to ${name}\\.`))).toBeVisible();
    await expect(publishButton).toBeFocused();
    expect(published).toHaveLength(1);
    await until(() => receiver.state.batches.length === 1);
    expect(receiver.state.badSignatures).toBe(0);
    expect(receiver.state.batches[0].messages[0]).toMatchObject({
      body: { order: 7 },
      attributes: { kind: 'ui-test' },
    });
    await expect(subRow.locator('td[data-label="Last success"]')).not.toHaveText('Never', { timeout: 15_000 });

    // The subscription's page: the delivery counted in the last hour and listed, the target healthy.
    await press(page, subRow.getByRole('link', { name: sub.slug }));
    await expect(page.getByRole('heading', { level: 1, name: `Subscription ${sub.slug}` })).toBeVisible();
    const chart = page.getByRole('img', { name: /^Messages per minute over the last hour/ });
    await expect(chart).toHaveAccessibleName(/: 1 delivered, 0 failed, 0 expired\.$/);
    const deliveries = page.getByRole('region', { name: 'Deliveries of the last 24 hours, newest first' });
    await expect(deliveries.getByRole('row')).toHaveCount(2);
    await expect(deliveries.getByRole('row').nth(1)).toContainText('Delivered');
    await expect(deliveries.getByRole('row').nth(1)).toContainText('204');
    await expect(page.getByRole('heading', { name: 'No dead letters' })).toBeVisible();
    // The figures as a table, for screen readers and anyone who opens it.
    await press(page, page.getByText('Each minute as a table'));
    const minutes = page.getByRole('table', { name: /Messages per minute over the last hour/ });
    await expect(minutes.getByRole('row')).toHaveCount(61);
    await expect(minutes.locator('tbody td:nth-of-type(1)').filter({ hasText: /^1$/ })).toHaveCount(1);
    await noSidewaysScroll(page, 'subscription page');
    await expectAccessibleInBothSchemes(page, `subscription page at ${width} px`);
    await shot(page, `subscription-${width}`);

    // The receiver fails: two messages, three attempts each, then dead letters; health turns failing, in words.
    receiver.respond(() => ({ status: 503 }));
    const res = await bob.post(`${queuesPath(demo.acme, demo.production)}/${queueId}/messages`, {
      data: { messages: [{ body: { order: 8 } }, { body: { order: 9 } }] },
    });
    expect(res.status()).toBe(202);
    const health = page.locator('dt:text-is("Health") + dd');
    await expect(health).toHaveText('Failing', { timeout: 20_000 });
    await expect(page.getByTestId('last-error')).toContainText(
      'The target answered 503 Service Unavailable: it failed on its side, or is down or overloaded.',
    );
    await expect(page.getByTestId('last-error')).toContainText('Class http · HTTP 503 Service Unavailable');
    const dead = page.getByRole('region', { name: 'Dead letters, oldest first' });
    await expect(dead.locator('tbody tr')).toHaveCount(2, { timeout: 20_000 });
    await expect(chart).toHaveAccessibleName(/: 1 delivered, [1-9]\d* failed, 0 expired\.$/);
    await expect(deliveries.getByRole('row').nth(1)).toContainText('Failed');
    await expect(deliveries.getByRole('row').nth(1)).toContainText('503 Service Unavailable');
    await shot(page, `subscription-failing-${width}`);

    // Fixed, the dead letters are redriven (one chosen, then discarded the other, at 1280; all at 320) and delivered.
    receiver.respond(() => ({ status: 204 }));
    receiver.reset();
    if (width === 1280) {
      const [first, second] = (await dead
        .locator('tbody tr')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-testid')!.replace('dead-letter-', '')))) as [
        string,
        string,
      ];
      await press(page, dead.getByRole('checkbox', { name: `Choose message ${first}` }), 'Space');
      const redriveChosen = page.getByRole('button', { name: 'Redrive selected (1)' });
      await press(page, redriveChosen);
      await expect(page.getByText('Redrove 1 message: it is delivered again.')).toBeVisible();
      await expect(redriveChosen.or(page.getByRole('button', { name: 'Redrive selected (0)' }))).toBeFocused();
      await expect(dead.locator('tbody tr')).toHaveCount(1);
      await press(page, dead.getByRole('button', { name: `Discard message ${second}` }));
      const confirm = page.getByRole('alertdialog', { name: 'Discard this message?' });
      await expectAccessible(page, 'discard confirmation');
      await press(page, confirm.getByRole('button', { name: 'Discard message' }));
      await expect(page.getByText(`Discarded message ${second}.`)).toBeVisible();
      await until(() => receiver.messageIds().includes(first));
      expect(receiver.messageIds()).not.toContain(second);
    } else {
      await press(page, page.getByRole('button', { name: 'Redrive all' }));
      const confirm = page.getByRole('alertdialog', { name: 'Redrive 2 dead letters?' });
      await press(page, confirm.getByRole('button', { name: 'Redrive all' }));
      await expect(page.getByText('Redrove 2 messages: they are delivered again.')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Redrive all' })).toBeFocused();
      await until(() => receiver.messageIds().length === 2);
    }
    await expect(page.getByRole('heading', { name: 'No dead letters' })).toBeVisible();
    await expect(health).toHaveText('Healthy', { timeout: 20_000 });
    await expect(chart).toHaveAccessibleName(new RegExp(`: ${width === 1280 ? 2 : 3} delivered, `));

    // Rotate the secret: shown once, focus back on the button.
    await rotateSigningSecret(page, secret);

    // Pause and resume, each confirmed and announced.
    await press(page, page.getByRole('button', { name: 'Pause', exact: true }));
    await press(page, page.getByRole('alertdialog').getByRole('button', { name: 'Pause subscription' }));
    await expect(page.getByText(`Paused ${sub.slug}.`)).toBeVisible();
    await expect(page.getByRole('note').filter({ hasText: 'Paused: messages wait' })).toBeVisible();
    await press(page, page.getByRole('button', { name: 'Resume', exact: true }));
    await press(page, page.getByRole('alertdialog').getByRole('button', { name: 'Resume subscription' }));
    await expect(page.getByText(`Resumed ${sub.slug}.`)).toBeVisible();

    // The queue in use is not deleted, and says why; without its subscription it is.
    await press(page, page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name }));
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    const deleteQueue = page.getByRole('button', { name: 'Delete queue' });
    await press(page, deleteQueue);
    await press(page, page.getByRole('alertdialog').getByRole('button', { name: 'Delete queue' }));
    await expect(page.getByRole('alert').filter({ hasText: 'delete it first' })).toHaveText(
      'A subscription reads from this queue; delete it first. Nothing was changed.',
    );
    await expect(deleteQueue).toBeFocused();
    await press(page, page.getByTestId(`subscription-${sub.slug}`).getByRole('link', { name: sub.slug }));
    await press(page, page.getByRole('button', { name: 'Delete', exact: true }));
    await press(page, page.getByRole('alertdialog').getByRole('button', { name: 'Delete subscription' }));
    await expect(page.getByText(`Deleted the subscription ${sub.slug}.`)).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No subscriptions yet' })).toBeVisible();
    await press(page, page.getByRole('button', { name: 'Delete queue' }));
    await press(page, page.getByRole('alertdialog').getByRole('button', { name: 'Delete queue' }));
    await expect(page.getByText(`Deleted the queue ${name}.`)).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Queues' })).toBeVisible();
    await expect(page.getByTestId(`queue-${name}`)).toHaveCount(0);
  });
}

test('a refusal of the publish is shown at its fields; the Subscriptions page names queues; a workflow holds', async ({
  page,
  demo,
  as,
}) => {
  const ada = await as('ada');
  const orders = await queueNamed(ada, demo.acme, demo.production, 'orders');
  const subs = await loadDemoSubs(demo);
  await signInAs(page, 'bob');

  // A server-only refusal (the shared rules pass in the browser), answered with the API's envelope.
  await page.route(`**${queuesPath(demo.acme, demo.production)}/${orders.id}/messages`, (route) =>
    route.fulfill({
      status: 400,
      contentType: 'application/json',
      body: JSON.stringify({
        error: {
          code: 'invalid_request',
          message: 'The request is not valid.',
          issues: [
            { path: 'messages.0.body', message: 'Server says: the body is too deep.' },
            { path: 'messages.0.attributes.kind', message: 'Server says: not that kind.' },
          ],
        },
      }),
    }),
  );
  await page.goto(`/orgs/${demo.acme}/projects/${demo.production}/queues/${orders.id}`);
  await press(page, page.getByRole('button', { name: 'Publish message' }));
  const publish = page.getByRole('dialog', { name: 'Publish to orders' });
  await press(page, publish.getByRole('button', { name: 'Add attribute' }));
  await page.keyboard.type('kind');
  await publish.getByLabel('Value 1').focus();
  await page.keyboard.type('x');
  await press(page, publish.getByRole('button', { name: 'Publish', exact: true }));
  await expect(publish.locator('#message-body-error')).toHaveText('Server says: the body is too deep.');
  await expect(publish.locator('#attribute-0-value-error')).toHaveText('Server says: not that kind.');
  await expect(publish.getByLabel('Body (JSON)')).toBeFocused();
  await expect(publish).toBeVisible();

  // The Subscriptions page: each row names its queue and links to it and to the subscription's page.
  await page.goto(`/orgs/${demo.acme}/projects/${demo.production}/subscriptions`);
  const row = page.getByTestId(`subscription-${subs.workflow.slug}`);
  await expect(row.getByRole('link', { name: 'orders' })).toHaveAttribute(
    'href',
    `/orgs/${demo.acme}/projects/${demo.production}/queues/${orders.id}`,
  );
  await press(page, row.getByRole('link', { name: subs.workflow.slug }));
  await expect(page.getByRole('heading', { level: 1, name: `Subscription ${subs.workflow.slug}` })).toBeVisible();
  await expect(page.getByRole('note').filter({ hasText: 'does not run workflows' })).toContainText(
    'it holds its messages in its backlog and delivers nothing',
  );

  // Its figures are read again every 5 s while the page is visible, and not while it is hidden.
  const activity = `${subsPath(demo.acme, demo.production)}/${subs.workflow.id}/activity`;
  const reads: number[] = [];
  page.on('request', (req) => req.url().endsWith(activity) && reads.push(Date.now()));
  await expect.poll(() => reads.length, { timeout: 12_000 }).toBeGreaterThanOrEqual(1);
  const setHidden = (hidden: boolean) =>
    page.evaluate((h) => {
      Object.defineProperty(document, 'visibilityState', { value: h ? 'hidden' : 'visible', configurable: true });
      Object.defineProperty(document, 'hidden', { value: h, configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    }, hidden);
  await setHidden(true);
  // A read already on its way may still land; none starts after.
  await page.waitForTimeout(1_000);
  const whileHidden = reads.length;
  await page.waitForTimeout(11_000);
  expect(reads.length).toBe(whileHidden);
  await setHidden(false);
  await expect.poll(() => reads.length, { timeout: 12_000 }).toBeGreaterThan(whileHidden);

  // An id of no queue or subscription of the project is "Not found", with a way back.
  await page.goto(`/orgs/${demo.acme}/projects/${demo.production}/queues/${subs.https.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Not found' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to the queues' })).toBeVisible();
});
