import { expect, test } from '../fixtures';
import { createKey } from '../support/api-keys';
import { auditEventsAbout } from '../support/audit';
import { E2E } from '../support/env';
import { startReceiver, type Receiver } from '../support/webhook-receiver';
import { createWebhook, hooksPath } from '../support/webhooks';

// The main server delivers to 127.0.0.1 (WEBHOOK_ALLOW_LOOPBACK=1 in playwright.config.ts).
let receiver: Receiver;
test.beforeAll(async () => {
  receiver = await startReceiver(E2E.port + 73);
});
test.afterAll(async () => receiver.close());

test('webhooks carry the restrictions: api_key.created with them, api_key.updated with before and after', async ({
  as,
  demo,
}) => {
  const gil = await as('gil');
  const { webhook, secret } = await createWebhook(gil, demo.globex, {
    url: `${receiver.url}/keys`,
    events: ['api_key.created', 'api_key.updated'],
    description: 'restrictions to chat',
  });
  const key = await createKey(gil, demo.globex, {
    name: `hooked restricted ${Date.now()}`,
    expiresInDays: 1,
    allowedIps: ['198.51.100.0/24'],
  });
  const patched = await gil.patch(`/v1/organizations/${demo.globex}/api-keys/${key.apiKey.id}`, {
    data: { allowedIps: ['198.51.100.7', '2001:db8::/48'] },
  });
  expect(patched.status(), await patched.text()).toBe(200);
  await expect.poll(() => receiver.received.length).toBe(2);
  const payloads = receiver.verify(secret);
  const events = await auditEventsAbout(gil, demo.globex, key.apiKey.id);
  expect(payloads.map((p) => p.type).sort()).toEqual(['api_key.created', 'api_key.updated']);
  for (const payload of payloads) expect(payload.data).toEqual(events.find((e) => e.action === payload.type));
  expect(events.map((e) => [e.action, e.changes])).toEqual([
    ['api_key.created', [{ field: 'allowedIps', from: null, to: ['198.51.100.0/24'] }]],
    ['api_key.updated', [{ field: 'allowedIps', from: ['198.51.100.0/24'], to: ['198.51.100.7/32', '2001:db8::/48'] }]],
  ]);
  await gil.delete(`${hooksPath(demo.globex)}/${webhook.id}`);
});
