import fc from 'fast-check';
import { bearer, expect, expectError, test } from '../fixtures';
import { createKey } from '../support/api-keys';
import { E2E } from '../support/env';
import { createWebhook, hooksPath } from '../support/webhooks';

const receiverUrl = `http://127.0.0.1:${E2E.port + 41}/hook`;

// Internal targets of every kind, generated: the same guard as subscription targets refuses each.
const internalHosts = fc.sample(
  fc.oneof(
    fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map(([a, b, c]) => `10.${a}.${b}.${c}`),
    fc.tuple(fc.integer({ min: 16, max: 31 }), fc.nat(255), fc.nat(255)).map(([a, b, c]) => `172.${a}.${b}.${c}`),
    fc.tuple(fc.nat(255), fc.nat(255)).map(([a, b]) => `192.168.${a}.${b}`),
    fc.tuple(fc.nat(255), fc.nat(255)).map(([a, b]) => `169.254.${a}.${b}`),
    fc.tuple(fc.nat(255), fc.nat(255)).map(([a, b]) => `[::ffff:10.0.${a}.${b}]`),
    fc.constantFrom('[fe80::1]', '[fc00::1]', '0.0.0.0', '100.64.0.1', 'localhost', '2130706433'),
  ),
  { numRuns: 24, seed: 33 },
);

test('internal targets, plain http and malformed URLs are refused at url; nothing is created', async ({ as, demo }) => {
  const gil = await as('gil');
  const count = async () => (await (await gil.get(`${hooksPath(demo.globex)}?limit=100`)).json()).items.length;
  const before = await count();
  const urls = [
    ...internalHosts.flatMap((h) => [`https://${h}/hook`, `http://${h}/hook`]),
    'http://hooks.example.com/x',
    'ftp://hooks.example.com/x',
    'https://user:pw@hooks.example.com/x',
    `http://user@127.0.0.1:${E2E.port + 41}/`,
    'hooks.example.com/x',
    `https://hooks.example.com/${'a'.repeat(2048)}`,
  ];
  for (const url of urls) {
    const res = await gil.post(hooksPath(demo.globex), { data: { url, events: ['api_key.*'] } });
    await expectError(res, 400, 'invalid_request', ['url']);
  }
  expect(await count()).toBe(before);
});

test('bad events, unknown fields and wrong types are 400 at their paths, all at once', async ({ as, demo }) => {
  const gil = await as('gil');
  const cases: [unknown, string[]][] = [
    [{ url: receiverUrl, events: [] }, ['events']],
    [{ url: receiverUrl, events: ['nope.*'] }, ['events.0']],
    [{ url: receiverUrl, events: ['api_key.created', 'api_key.deleted'] }, ['events.1']],
    [{ url: receiverUrl, events: ['api_key.*', 'api_key.*'] }, ['events']],
    [{ url: receiverUrl, events: ['*'], secret: 'mine' }, ['secret']],
    [{ url: 5, events: 'api_key.*', description: 'x'.repeat(501) }, ['url', 'events', 'description']],
    [{ events: ['*'] }, ['url']],
  ];
  for (const [data, paths] of cases)
    await expectError(await gil.post(hooksPath(demo.globex), { data }), 400, 'invalid_request', paths);
  const { webhook } = await createWebhook(gil, demo.globex, { url: receiverUrl, events: ['*'] });
  const path = `${hooksPath(demo.globex)}/${webhook.id}`;
  await expectError(await gil.patch(path, { data: { enabled: 'yes', id: 'x' } }), 400, 'invalid_request', [
    'enabled',
    'id',
  ]);
  await expectError(await gil.patch(path, { data: { url: 'https://10.1.2.3/' } }), 400, 'invalid_request', ['url']);
  expect(await (await gil.get(path)).json()).toMatchObject({ url: receiverUrl, events: ['*'], enabled: true });
  await gil.delete(path);
});

test('without orgs.update: 403 before the body is read; another organization or an unknown id: 404', async ({
  as,
  demo,
}) => {
  const ada = await as('ada');
  const bob = await as('bob');
  const gil = await as('gil');
  const { webhook } = await createWebhook(ada, demo.acme, { url: receiverUrl, events: ['silence.*'] });
  const path = `${hooksPath(demo.acme)}/${webhook.id}`;
  const refusals = [
    () => bob.get(hooksPath(demo.acme)),
    () => bob.post(hooksPath(demo.acme), { data: { url: 'nope' } }),
    () => bob.patch(path, { data: { enabled: false } }),
    () => bob.delete(path),
    () => bob.post(`${path}/rotate-secret`),
    () => bob.post(`${path}/test`),
    () => bob.get(`${path}/deliveries`),
  ];
  for (const refuse of refusals) await expectError(await refuse(), 403, 'access_denied');
  for (const other of [
    () => gil.get(path),
    () => gil.patch(path, { data: { enabled: false } }),
    () => gil.delete(path),
    () => gil.post(`${path}/rotate-secret`),
    () => gil.get(hooksPath(demo.acme)),
  ])
    await expectError(await other(), 404, 'not_found');
  const unknown = `${hooksPath(demo.acme)}/00000000-0000-4000-8000-000000000000`;
  await expectError(await ada.get(unknown), 404, 'not_found');
  await expectError(await ada.get(`${hooksPath(demo.acme)}/not-a-uuid`), 404, 'not_found');
  await expectError(
    await ada.post(`${path}/deliveries/00000000-0000-4000-8000-000000000000/redeliver`),
    404,
    'not_found',
  );
  await expectError(await ada.get(`${path}/deliveries?cursor=garbage`), 400, 'invalid_cursor');
  expect(await (await ada.get(path)).json()).toMatchObject({ enabled: true, events: ['silence.*'] });
  await ada.delete(path);
});

test('notifications are the console session’s own: other credentials get 403, bad bodies 400', async ({ as, demo }) => {
  const bob = await as('bob');
  const key = await createKey(bob, demo.acme, { name: `me-${Date.now()}` });
  const byKey = await bearer(key.secret);
  for (const res of [
    await byKey.get('/v1/me/notifications'),
    await byKey.post('/v1/me/notifications/read', { data: {} }),
    await byKey.get('/v1/me/notification-preferences'),
    await byKey.patch('/v1/me/notification-preferences', { data: { key_leaked: false } }),
  ])
    await expectError(res, 403, 'access_denied');
  await expectError(
    await bob.patch('/v1/me/notification-preferences', { data: { key_leaked: 'no', sms: true } }),
    400,
    'invalid_request',
    ['key_leaked', 'sms'],
  );
  await expectError(await bob.post('/v1/me/notifications/read', { data: { ids: ['x'] } }), 400, 'invalid_request', [
    'ids.0',
  ]);
  expect(await (await bob.get('/v1/me/notification-preferences')).json()).toEqual({
    key_leaked: true,
    key_expiring: true,
    key_revoked_by_other: true,
    webhook_disabled: true,
    subscription_health: true,
  });
  await byKey.dispose();
});
