import { expect, test } from '../fixtures';
import { createKey } from '../support/api-keys';
import { auditEventsAbout } from '../support/audit';
import { E2E } from '../support/env';
import { startReceiver, type Receiver } from '../support/webhook-receiver';
import { attemptsOf, createWebhook, hooksPath } from '../support/webhooks';

// The main test server runs with WEBHOOK_ALLOW_LOOPBACK=1 and WEBHOOK_RETRY_SCHEDULE=300ms,600ms,900ms
// (playwright.config.ts), so a receiver on 127.0.0.1 gets deliveries and a failing one is given up quickly.
const SCHEDULE = [300, 600, 900];
test.describe.configure({ mode: 'serial' });

let receiver: Receiver;
test.beforeAll(async () => {
  receiver = await startReceiver(E2E.port + 40);
});
test.afterAll(async () => receiver.close());
test.beforeEach(() => {
  receiver.received.length = 0;
});

test('an endpoint gets every matching event, signed per Standard Webhooks, and nothing else', async ({ as, demo }) => {
  const gil = await as('gil');
  const { webhook, secret } = await createWebhook(gil, demo.globex, {
    url: `${receiver.url}/keys`,
    events: ['api_key.*'],
    description: 'keys to chat',
  });
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  expect(Buffer.from(secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);
  // The secret is never listed or shown again.
  const listed = await (await gil.get(hooksPath(demo.globex))).text();
  expect(listed).toContain(webhook.id);
  expect(listed).not.toContain(secret.slice(6));

  const key = await createKey(gil, demo.globex, { name: `hooked-${Date.now()}` });
  expect((await gil.delete(`/v1/organizations/${demo.globex}/api-keys/${key.apiKey.id}`)).status()).toBe(204);
  // A change this endpoint did not ask for (a webhook event) is not sent to it.
  expect((await gil.patch(`${hooksPath(demo.globex)}/${webhook.id}`, { data: { description: 'x' } })).status()).toBe(
    200,
  );
  await expect.poll(() => receiver.received.length).toBe(2);

  const payloads = receiver.verify(secret);
  expect(payloads.map((p) => p.type).sort()).toEqual(['api_key.created', 'api_key.revoked']);
  const events = await auditEventsAbout(gil, demo.globex, key.apiKey.id);
  for (const payload of payloads) {
    const event = events.find((e) => e.action === payload.type)!;
    // webhook-id is the audit event's id; the body carries the event as the API shows it.
    expect(receiver.received.find((r) => JSON.parse(r.body).type === payload.type)!.id).toBe(event.id);
    expect(payload.data).toEqual(event);
    expect(payload.timestamp).toBe(event.occurredAt);
  }
  expect(JSON.stringify(payloads)).not.toContain(key.secret);
  await gil.delete(`${hooksPath(demo.globex)}/${webhook.id}`);
});

test('failures are retried with the same webhook-id on the schedule, until the receiver accepts', async ({
  as,
  demo,
}) => {
  const gil = await as('gil');
  const { webhook, secret } = await createWebhook(gil, demo.globex, { url: receiver.url, events: ['api_key.created'] });
  receiver.answer({ status: 503 }, { status: 500 }, { status: 429 });
  await createKey(gil, demo.globex, { name: `retried-${Date.now()}` });
  await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(4);
  receiver.verify(secret);
  expect(new Set(receiver.received.map((r) => r.id)).size).toBe(1);

  const attempts = await attemptsOf(gil, demo.globex, webhook.id);
  expect(attempts.map((a) => [a.attempt, a.status])).toEqual([
    [1, 503],
    [2, 500],
    [3, 429],
    [4, 204],
  ]);
  expect(new Set(attempts.map((a) => a.messageId))).toEqual(new Set([receiver.received[0].id]));
  // Each retry was scheduled the schedule's delay after its failure (start plus duration), ±20 % jitter. The due
  // time counts from the record, on the database's clock, which follows the failure by a round trip or a few:
  // at +20 % jitter, 1 ms of slack was once too little.
  attempts.slice(0, 3).forEach((a, i) => {
    const delay = Date.parse(a.nextAttemptAt!) - Date.parse(a.at) - a.durationMs;
    expect(delay).toBeGreaterThanOrEqual(SCHEDULE[i] * 0.8 - 1);
    expect(delay).toBeLessThanOrEqual(SCHEDULE[i] * 1.2 + 50);
    // and the retry was not sent before it was due.
    expect(Date.parse(attempts[i + 1].at)).toBeGreaterThanOrEqual(Date.parse(a.nextAttemptAt!));
    expect(a.error).toBe(`The receiver answered ${a.status}.`);
  });
  expect(attempts[3].nextAttemptAt).toBeUndefined();
  await gil.delete(`${hooksPath(demo.globex)}/${webhook.id}`);
});

test('a longer Retry-After wins over the schedule; a 4xx is not retried', async ({ as, demo }) => {
  const gil = await as('gil');
  const { webhook } = await createWebhook(gil, demo.globex, { url: receiver.url, events: ['api_key.created'] });
  receiver.answer({ status: 429, headers: { 'retry-after': '2' } }, { status: 410 });
  await createKey(gil, demo.globex, { name: `retry-after-${Date.now()}` });
  await createKey(gil, demo.globex, { name: `gone-${Date.now()}` });
  await expect.poll(async () => (await attemptsOf(gil, demo.globex, webhook.id)).length, { timeout: 10_000 }).toBe(3);
  const attempts = await attemptsOf(gil, demo.globex, webhook.id);
  const first = attempts.find((a) => a.status === 429)!;
  expect(Date.parse(first.nextAttemptAt!) - Date.parse(first.at)).toBeGreaterThanOrEqual(2000);
  const gone = attempts.find((a) => a.status === 410)!;
  expect(gone.nextAttemptAt).toBeUndefined();
  expect(attempts.filter((a) => a.messageId === gone.messageId)).toHaveLength(1);
  await gil.delete(`${hooksPath(demo.globex)}/${webhook.id}`);
});

test('an endpoint failing through the whole schedule is disabled, audited, its admins told; Redeliver and re-enable work', async ({
  as,
  demo,
}) => {
  const gil = await as('gil');
  const { webhook, secret } = await createWebhook(gil, demo.globex, { url: receiver.url, events: ['api_key.created'] });
  receiver.answer(...Array.from({ length: SCHEDULE.length + 1 }, () => ({ status: 500 })));
  await createKey(gil, demo.globex, { name: `doomed-${Date.now()}` });
  const path = `${hooksPath(demo.globex)}/${webhook.id}`;
  await expect.poll(async () => (await (await gil.get(path)).json()).enabled, { timeout: 15_000 }).toBe(false);
  const attempts = await attemptsOf(gil, demo.globex, webhook.id);
  expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4]);
  expect(attempts[3].nextAttemptAt).toBeUndefined();

  const disabled = (await auditEventsAbout(gil, demo.globex, webhook.id)).find((e) => e.action === 'webhook.disabled');
  expect(disabled?.actor.type).toBe('system');
  const notices = await (await gil.get('/v1/me/notifications')).json();
  expect(
    notices.items.find(
      (n: { kind: string; body: string }) => n.kind === 'webhook_disabled' && n.body.includes(receiver.url),
    ),
  ).toBeTruthy();
  expect(notices.unread).toBeGreaterThan(0);

  // While disabled nothing is queued for it; re-enabled, new events flow and Redeliver sends the failed one again.
  await createKey(gil, demo.globex, { name: `while-disabled-${Date.now()}` });
  expect((await gil.patch(path, { data: { enabled: true } })).status()).toBe(200);
  expect((await gil.post(`${path}/deliveries/${attempts[3].id}/redeliver`)).status()).toBe(202);
  await createKey(gil, demo.globex, { name: `after-enable-${Date.now()}` });
  await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(SCHEDULE.length + 3);
  const keyNames = receiver.verify(secret).map((p) => (p.data.target as { name: string }).name);
  expect(keyNames.filter((name) => name.startsWith('doomed-'))).toHaveLength(SCHEDULE.length + 2);
  expect(keyNames.filter((name) => name.startsWith('after-enable-'))).toHaveLength(1);
  expect(keyNames.filter((name) => name.startsWith('while-disabled-'))).toHaveLength(0);
  const redelivered = (await attemptsOf(gil, demo.globex, webhook.id)).filter(
    (a) => a.messageId === attempts[0].messageId,
  );
  expect(redelivered.map((a) => [a.attempt, a.status])).toEqual([
    [1, 500],
    [2, 500],
    [3, 500],
    [4, 500],
    [5, 204],
  ]);
  await gil.delete(path);
});

test('after a rotation deliveries carry both signatures; each secret verifies alone', async ({ as, demo }) => {
  const gil = await as('gil');
  const { webhook, secret: old } = await createWebhook(gil, demo.globex, {
    url: receiver.url,
    events: ['webhook.secret_rotated'],
  });
  const path = `${hooksPath(demo.globex)}/${webhook.id}`;
  const rotated = await gil.post(`${path}/rotate-secret`);
  expect(rotated.status()).toBe(200);
  expect(rotated.headers()['cache-control']).toBe('no-store');
  const { secret } = await rotated.json();
  expect(secret).not.toBe(old);
  await expect.poll(() => receiver.received.length).toBe(1);
  expect(receiver.received[0].signature.split(' ')).toHaveLength(2);
  expect(receiver.verify(secret)[0].type).toBe('webhook.secret_rotated');
  expect(receiver.verify(old)[0].type).toBe('webhook.secret_rotated');
  expect(() => receiver.verify(`whsec_${Buffer.alloc(32, 7).toString('base64')}`)).toThrow();

  expect((await gil.post(`${path}/test`)).status()).toBe(202);
  await expect.poll(() => receiver.received.length).toBe(2);
  expect(receiver.verify(secret)[1]).toMatchObject({ type: 'webhook.test', data: { webhookId: webhook.id } });
  await gil.delete(path);
});

test('webhook changes are audited without secrets; a deleted endpoint is gone', async ({ as, demo }) => {
  const gil = await as('gil');
  const { webhook, secret } = await createWebhook(gil, demo.globex, { url: receiver.url, events: ['*'] });
  const path = `${hooksPath(demo.globex)}/${webhook.id}`;
  const patched = await gil.patch(path, { data: { events: ['silence.expired', 'api_key.*'], enabled: false } });
  expect(await patched.json()).toMatchObject({ events: ['silence.expired', 'api_key.*'], enabled: false });
  const { secret: next } = await (await gil.post(`${path}/rotate-secret`)).json();
  expect((await gil.delete(path)).status()).toBe(204);
  expect((await gil.get(path)).status()).toBe(404);
  const events = await auditEventsAbout(gil, demo.globex, webhook.id);
  expect(events.map((e) => e.action).sort()).toEqual([
    'webhook.created',
    'webhook.deleted',
    'webhook.secret_rotated',
    'webhook.updated',
  ]);
  const updated = events.find((e) => e.action === 'webhook.updated')!;
  expect(updated.changes).toEqual([
    { field: 'enabled', from: true, to: false },
    { field: 'events', from: ['*'], to: ['silence.expired', 'api_key.*'] },
  ]);
  const text = JSON.stringify(events);
  for (const s of [secret, next]) expect(text).not.toContain(s.slice(6));
});
