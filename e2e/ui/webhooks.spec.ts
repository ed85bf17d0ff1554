import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { expectAccessible } from '../support/axe';
import { createKey } from '../support/api-keys';
import { press, rotateSigningSecret, signInAs } from '../support/console';
import { E2E } from '../support/env';
import { startReceiver, type Receiver } from '../support/webhook-receiver';
import { hooksPath } from '../support/webhooks';

// The main test server runs with WEBHOOK_ALLOW_LOOPBACK=1 (playwright.config.ts): a receiver on 127.0.0.1 is a
// valid target, over http.
// Long walks with axe analyses, on a shared and often loaded machine (the first took 59 s at a load of 20).
test.describe.configure({ mode: 'serial', timeout: 120_000 });
test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

let receiver: Receiver;
test.beforeAll(async () => {
  receiver = await startReceiver(E2E.port + 46);
});
test.afterAll(async () => receiver.close());

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

test('an admin adds a webhook, sees its secret once, sends a test event, sees it delivered and redelivers it', async ({
  page,
  demo,
  as,
}) => {
  receiver.received.length = 0;
  const url = `${receiver.url}/ui-${Date.now()}`;
  await signInAs(page, 'ada');
  await page.goto(`/orgs/${demo.acme}`);
  await press(page, page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Webhooks' }));
  await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();

  const add = page.getByRole('button', { name: 'Add webhook' }).first();
  await press(page, add);
  const dialog = page.getByRole('dialog', { name: 'Add webhook' });
  // The URL field has focus; no events chosen yet: the problem is said beside the events.
  await expect(dialog.getByLabel('URL')).toBeFocused();
  // This server admits loopback targets (WEBHOOK_ALLOW_LOOPBACK=1): the hint says so, as the receiver here needs.
  await expect(dialog.getByLabel('URL')).toHaveAccessibleDescription(
    /^An https:\/\/ address on the public internet, or \(this server admits loopback targets\) an http:\/\/ or https:\/\/ one on 127\.0\.0\.1 or \[::1\]\./,
  );
  await expectAccessible(page, 'add webhook dialog');
  await page.keyboard.type('http://10.0.0.7/hook');
  await press(page, dialog.getByRole('button', { name: 'Add webhook' }));
  await expect(dialog.getByText('Choose at least one event.')).toBeVisible();
  await press(page, dialog.getByRole('checkbox', { name: 'silence.*' }), 'Space');
  await expect(dialog.getByRole('checkbox', { name: 'silence.created' })).toBeDisabled();
  await expect(dialog.getByRole('checkbox', { name: 'silence.created' })).toBeChecked();
  // Alert transitions are events an endpoint can choose too, though not audit events.
  await expect(dialog.getByRole('checkbox', { name: 'alert.firing' })).toHaveCount(1);
  await expect(dialog.getByRole('checkbox', { name: 'alert.*' })).toHaveCount(1);
  // An internal address: the server's guard answers, next to the URL field.
  await press(page, dialog.getByRole('button', { name: 'Add webhook' }));
  await expect(dialog.locator('#webhook-url-error')).not.toBeEmpty();
  await expect(dialog.getByLabel('URL')).toBeFocused();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(url);
  await dialog.getByLabel('Description (optional)').focus();
  await page.keyboard.type('silences to chat');
  await page.screenshot({ path: 'test-results/screens/webhooks-add-1280.png' });
  await press(page, dialog.getByRole('button', { name: 'Add webhook' }));

  const reveal = page.getByRole('dialog', { name: "The webhook's signing secret" });
  const secret = await reveal.getByLabel('Signing secret').inputValue();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/);
  await press(page, reveal.getByRole('button', { name: 'Copy' }));
  await expect(reveal.getByText('Copied to the clipboard.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await press(page, reveal.getByRole('button', { name: 'Done' }));
  await expect(reveal).toBeHidden();
  await expect(add).toBeFocused();
  // Shown once: the list and the API never show it again.
  await expect(page.getByText(secret)).toHaveCount(0);
  const listed = await (await (await as('ada')).get(hooksPath(demo.acme))).text();
  expect(listed).not.toContain(secret.slice(6));
  // The toast links to the new webhook's page, and Back returns to the list.
  await page.getByRole('link', { name: 'Open the webhook' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Webhook' })).toBeVisible();
  await expect(page.getByText(url, { exact: true })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/orgs/${demo.acme}/webhooks/[0-9a-f-]{36}$`));
  await page.goBack();

  const row = page.getByRole('row', { name: new RegExp(url) });
  await expect(row).toContainText('silence.*');
  await expect(row).toContainText('Enabled');
  await page.screenshot({ path: 'test-results/screens/webhooks-list-1280.png', fullPage: true });
  await expectAccessible(page, 'webhooks list');
  await press(page, row.getByRole('link', { name: url }));
  await expect(page.getByRole('heading', { level: 1, name: 'Webhook' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No deliveries yet' })).toBeVisible();

  await press(page, page.getByRole('button', { name: 'Send test event' }));
  await expect(page.getByText('Test event queued')).toBeVisible();
  const log = page.getByRole('region', { name: 'Delivery log' });
  const first = log.getByRole('row', { name: /webhook\.test/ });
  await expect(first).toHaveCount(1, { timeout: 15_000 });
  await expect(first).toContainText('204');
  await expect(first.getByRole('cell').nth(1)).toHaveText('1');
  // What arrived verifies with the secret the page showed.
  expect(receiver.received).toHaveLength(1);
  const [payload] = receiver.verify(secret);
  expect(payload.type).toBe('webhook.test');
  await page.screenshot({ path: 'test-results/screens/webhook-details-1280.png', fullPage: true });
  await expectAccessible(page, 'webhook page with its delivery log');

  await press(page, first.getByRole('button', { name: /^Redeliver webhook\.test/ }));
  await expect(page.getByText('Queued webhook.test again')).toBeVisible();
  await expect(log.getByRole('row', { name: /webhook\.test/ })).toHaveCount(2, { timeout: 15_000 });
  await expect(
    log
      .getByRole('row', { name: /webhook\.test/ })
      .first()
      .getByRole('cell')
      .nth(1),
  ).toHaveText('2');
  expect(receiver.received).toHaveLength(2);
  expect(receiver.received[1].id).toBe(receiver.received[0].id);
  receiver.verify(secret);

  // Edit: the description only is sent; the page shows the answer.
  await press(page, page.getByRole('button', { name: 'Edit' }));
  const edit = page.getByRole('dialog', { name: 'Edit webhook' });
  await edit.getByLabel('Description (optional)').fill('silences to the on-call chat');
  await press(page, edit.getByRole('button', { name: 'Save' }));
  await expect(edit).toBeHidden();
  await expect(page.getByText('silences to the on-call chat')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Edit' })).toBeFocused();

  // Rotate: a new secret, shown once in the same reveal dialog.
  await rotateSigningSecret(page, secret);

  // At 320 px the page reflows: no sideways scroll, and each attempt is a card whose status is on screen.
  await page.setViewportSize({ width: 320, height: 640 });
  await noSidewaysScroll(page);
  const status = page.locator('td[data-label="Status"]').first();
  await expect(status).toBeVisible();
  const box = (await status.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(320);
  await expect(page.getByRole('link', { name: /^Notifications/ })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/webhook-details-320.png', fullPage: true });
  await page.goto(`/orgs/${demo.acme}/webhooks`);
  await expect(page.getByRole('row', { name: new RegExp(url) })).toBeVisible();
  await noSidewaysScroll(page);
  await page.screenshot({ path: 'test-results/screens/webhooks-list-320.png', fullPage: true });
  await press(page, page.getByRole('link', { name: url }));
  await expect(page.getByRole('heading', { level: 1, name: 'Webhook' })).toBeVisible();

  // Delete, after a confirmation; the list no longer has it.
  await press(page, page.getByRole('button', { name: 'Delete' }));
  await press(page, page.getByRole('alertdialog').getByRole('button', { name: 'Delete webhook' }));
  await expect(page).toHaveURL(new RegExp(`/orgs/${demo.acme}/webhooks$`));
  await expect(page.getByRole('link', { name: url })).toHaveCount(0);
});

test('a create refused for want of a recent sign-in (sudo) asks to confirm, then sends the form again as typed', async ({
  page,
  demo,
}) => {
  // The test servers keep sessions in sudo for a day: the first POST gets the API's exact refusal, the retry is real.
  let refused = 0;
  await page.route(`**${hooksPath(demo.acme)}`, (route) =>
    route.request().method() === 'POST' && refused++ === 0
      ? route.fulfill({
          status: 403,
          contentType: 'application/json',
          body: JSON.stringify({
            error: { code: 'reauthentication_required', message: 'Confirm it is you, then try again.' },
          }),
        })
      : route.fallback(),
  );
  await signInAs(page, 'ada');
  await page.goto(`/orgs/${demo.acme}/webhooks`);
  await press(page, page.getByRole('button', { name: 'Add webhook' }).first());
  const dialog = page.getByRole('dialog', { name: 'Add webhook' });
  const url = `${receiver.url}/sudo-${Date.now()}`;
  await page.keyboard.type(url);
  await press(page, dialog.getByRole('checkbox', { name: '* (every event)' }), 'Space');
  await press(page, dialog.getByRole('button', { name: 'Add webhook' }));
  const sudo = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(sudo.getByLabel('Password')).toBeFocused();
  await page.keyboard.type(E2E.password);
  await page.keyboard.press('Enter');
  await expect(sudo).toBeHidden();
  // The form was sent again as typed: the endpoint exists, and its secret is shown once.
  await expect(page.getByRole('dialog', { name: "The webhook's signing secret" })).toBeVisible();
  expect(refused).toBe(2);
});

test('someone without orgs.update gets no Webhooks link and a note instead of the page', async ({ page, demo }) => {
  await signInAs(page, 'bob');
  await expect(page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'API keys' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Webhooks' })).toHaveCount(
    0,
  );
  await page.goto(`/orgs/${demo.acme}/webhooks`);
  await expect(page.getByRole('note')).toContainText('orgs.update');
  await expect(page.getByRole('button', { name: 'Add webhook' })).toHaveCount(0);
});

test('a key revoked by someone else shows in the bell; the notification is listed, marked read, and a kind turned off', async ({
  page,
  demo,
  as,
}) => {
  const bob = await as('bob');
  const ada = await as('ada');
  const unreadBefore = ((await (await bob.get('/v1/me/notifications?limit=1')).json()) as { unread: number }).unread;
  await signInAs(page, 'bob');
  const name = `ui-bell-${Date.now()}`;
  const key = await createKey(bob, demo.acme, { name });
  expect((await ada.delete(`/v1/organizations/${demo.acme}/api-keys/${key.apiKey.id}`)).status()).toBe(204);

  await page.goto(`/orgs/${demo.acme}/api-keys`);
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();
  // The count comes with the bell's own request after the page loads: slow when the machine is loaded.
  const bell = page.getByRole('link', { name: `Notifications, ${unreadBefore + 1} unread` });
  await expect(bell).toBeVisible({ timeout: 20_000 });
  await press(page, bell);
  await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
  const item = page.getByRole('listitem').filter({ hasText: name }).first();
  await expect(item).toContainText('was revoked by');
  await expect(item).toContainText(key.apiKey.prefix);
  await expect(item).toContainText('Unread');
  // Newest first.
  await expect(page.getByRole('list', { name: 'Notifications' }).getByRole('listitem').first()).toContainText(name);
  await page.screenshot({ path: 'test-results/screens/notifications-1280.png', fullPage: true });
  await expectAccessible(page, 'notifications');

  await press(page, item.getByRole('button', { name: /^Mark read:/ }));
  await expect(page.getByText('Marked read.')).toBeVisible();
  await expect(item).not.toContainText('Unread');
  await expect(
    page.getByRole('link', { name: unreadBefore === 0 ? 'Notifications' : `Notifications, ${unreadBefore} unread` }),
  ).toBeVisible({ timeout: 20_000 });

  // A kind turned off is saved at once; turned back on for the other tests.
  const expiring = page.getByRole('checkbox', { name: 'A key of yours expires soon' });
  await expect(expiring).toBeChecked();
  await press(page, expiring, 'Space');
  await expect(page.getByText('A key of yours expires soon: off.')).toBeVisible();
  expect(
    ((await (await bob.get('/v1/me/notification-preferences')).json()) as Record<string, boolean>).key_expiring,
  ).toBe(false);
  await expect(expiring).toBeFocused();
  await page.setViewportSize({ width: 320, height: 640 });
  await noSidewaysScroll(page);
  await page.screenshot({ path: 'test-results/screens/notifications-320.png', fullPage: true });
  await press(page, expiring, 'Space');
  await expect(page.getByText('A key of yours expires soon: on.')).toBeVisible();
  expect(
    ((await (await bob.get('/v1/me/notification-preferences')).json()) as Record<string, boolean>).key_expiring,
  ).toBe(true);
});
