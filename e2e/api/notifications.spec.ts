import type { APIRequestContext } from '@playwright/test';
import { EMAILS, expect, test } from '../fixtures';
import { createKey } from '../support/api-keys';
import { E2E } from '../support/env';
import { leak, postReport, serverScannerKey } from '../support/secret-scanning';
import { startSmtp } from '../support/smtp-receiver';

// The main test server sends mail to SMTP_URL=smtp://127.0.0.1:<port + 60> (playwright.config.ts).
test.describe.configure({ mode: 'serial' });
let smtp: Awaited<ReturnType<typeof startSmtp>>;
test.beforeAll(async () => {
  smtp = await startSmtp(E2E.port + 60);
});
test.afterAll(async () => smtp.close());

type Notice = { id: string; kind: string; subject: string; body: string; read: boolean };
const notices = async (ctx: APIRequestContext) =>
  (await (await ctx.get('/v1/me/notifications?limit=100')).json()) as { items: Notice[]; unread: number };
const about = async (ctx: APIRequestContext, kind: string, text: string) =>
  (await notices(ctx)).items.filter((n) => n.kind === kind && n.subject.includes(text));

test('a key revoked by someone else: its owner is emailed (text and HTML, no secret) and notified in the console', async ({
  as,
  demo,
}) => {
  const ada = await as('ada');
  const bob = await as('bob');
  const name = `revoked-by-ada-${Date.now()}`;
  const key = await createKey(bob, demo.acme, { name });
  expect((await ada.delete(`/v1/organizations/${demo.acme}/api-keys/${key.apiKey.id}`)).status()).toBe(204);
  await expect.poll(() => smtp.to(EMAILS.bob, name).length).toBe(1);
  const mail = smtp.to(EMAILS.bob, name)[0];
  expect(mail.raw).toContain('text/plain');
  expect(mail.raw).toContain('text/html');
  expect(mail.raw).not.toContain(key.secret.slice(4));
  const [notice] = await about(bob, 'key_revoked_by_other', name);
  expect(notice).toMatchObject({ read: false });
  expect(notice.subject).toContain(key.apiKey.prefix);

  // Revoking one's own key tells nobody.
  const own = await createKey(bob, demo.acme, { name: `${name}-own` });
  expect((await bob.delete(`/v1/organizations/${demo.acme}/api-keys/${own.apiKey.id}`)).status()).toBe(204);
  const marker = `${name}-marker`;
  const later = await createKey(bob, demo.acme, { name: marker });
  await ada.delete(`/v1/organizations/${demo.acme}/api-keys/${later.apiKey.id}`);
  await expect.poll(() => smtp.to(EMAILS.bob, marker).length).toBe(1);
  expect(smtp.to(EMAILS.bob, `${name}-own`)).toHaveLength(0);
  expect(await about(bob, 'key_revoked_by_other', `${name}-own`)).toHaveLength(0);

  const before = (await notices(bob)).unread;
  expect((await bob.post('/v1/me/notifications/read', { data: { ids: [notice.id] } })).status()).toBe(204);
  expect((await notices(bob)).unread).toBe(before - 1);
  expect((await about(bob, 'key_revoked_by_other', name)).find((n) => n.id === notice.id)?.read).toBe(true);
});

test('a leaked key: its owner and the organization’s admins are told', async ({ as, demo }) => {
  const bob = await as('bob');
  const ada = await as('ada');
  const name = `leaky-${Date.now()}`;
  const key = await createKey(bob, demo.acme, { name });
  const res = await postReport(JSON.stringify([leak(key.secret, `https://example.test/${name}`)]), serverScannerKey());
  expect(res.status).toBe(200);
  await expect.poll(() => smtp.to(EMAILS.bob, name).length).toBe(1);
  await expect.poll(() => smtp.to(EMAILS.ada, name).length).toBe(1);
  expect(smtp.to(EMAILS.cy, name)).toHaveLength(0);
  for (const ctx of [bob, ada]) {
    const [notice] = await about(ctx, 'key_leaked', name);
    expect(notice.body).toContain(`https://example.test/${name}`);
  }
  expect(JSON.stringify(smtp.mails)).not.toContain(key.secret.slice(4));
});

test('a kind turned off is neither listed nor emailed; turned on again, it is', async ({ as, demo }) => {
  const ada = await as('ada');
  const cy = await as('cy');
  const prefs = '/v1/me/notification-preferences';
  const off = await cy.patch(prefs, { data: { key_revoked_by_other: false } });
  expect(await off.json()).toMatchObject({ key_revoked_by_other: false, key_leaked: true });
  const quiet = `quiet-${Date.now()}`;
  const first = await createKey(cy, demo.acme, { name: quiet });
  await ada.delete(`/v1/organizations/${demo.acme}/api-keys/${first.apiKey.id}`);
  expect((await cy.patch(prefs, { data: { key_revoked_by_other: true } })).status()).toBe(200);
  const loud = `loud-${Date.now()}`;
  const second = await createKey(cy, demo.acme, { name: loud });
  await ada.delete(`/v1/organizations/${demo.acme}/api-keys/${second.apiKey.id}`);
  await expect.poll(() => smtp.to(EMAILS.cy, loud).length).toBe(1);
  expect(smtp.to(EMAILS.cy, quiet)).toHaveLength(0);
  expect(await about(cy, 'key_revoked_by_other', quiet)).toHaveLength(0);
});

test('expiry reminders: 7 days and 1 day before, once each, whichever pass finds the key', async ({ as, demo }) => {
  const bob = await as('bob');
  const stamp = Date.now();
  const week = `expires-in-7-${stamp}`;
  const day = `expires-in-1-${stamp}`;
  await createKey(bob, demo.acme, { name: week, expiresInDays: 7 });
  await createKey(bob, demo.acme, { name: day, expiresInDays: 1 });
  await expect.poll(async () => (await about(bob, 'key_expiring', week)).length).toBe(1);
  await expect.poll(async () => (await about(bob, 'key_expiring', day)).length).toBe(1);
  // A key made after those reminders went out is reminded by a later pass; the earlier ones are not again.
  const marker = `expires-marker-${stamp}`;
  await createKey(bob, demo.acme, { name: marker, expiresInDays: 1 });
  await expect.poll(async () => (await about(bob, 'key_expiring', marker)).length).toBe(1);
  expect((await about(bob, 'key_expiring', week)).map((n) => n.subject)).toEqual([
    expect.stringContaining('expires in 7 days'),
  ]);
  expect((await about(bob, 'key_expiring', day)).map((n) => n.subject)).toEqual([
    expect.stringContaining('expires within a day'),
  ]);
  await expect.poll(() => smtp.to(EMAILS.bob, day).length).toBe(1);
});
