import { createHash } from 'node:crypto';
import { bearer, expect, expectError, sessionFor, test } from '../fixtures';
import { createKey, createScimToken, statusWithKey } from '../support/api-keys';
import { auditEventsAbout } from '../support/audit';
import { E2E } from '../support/env';
import {
  deviceLoginToken,
  leak,
  newScannerKey,
  postReport,
  serverScannerKey,
  signatureFor,
  type ReportAnswer,
} from '../support/secret-scanning';
import { spawnServer, type Spawned } from '../support/spawn-server';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const badChecksum = (key: string) => key.slice(0, -1) + (key.endsWith('0') ? '1' : '0');
// A well-formed key with a valid checksum that this service never issued.
const NEVER_ISSUED = 'svc_' + 'A'.repeat(34);

test('a batch: live credentials of every kind revoked at once, the right labels, and the owner’s notice', async ({
  as,
  demo,
  request,
}) => {
  const bob = await as('bob');
  const ada = await as('ada');
  const unique = Date.now();
  const live = await createKey(bob, demo.acme, { name: `leaked-${unique}` });
  const revoked = await createKey(bob, demo.acme, { name: `already-revoked-${unique}` });
  expect((await bob.delete(`/v1/organizations/${demo.acme}/api-keys/${revoked.apiKey.id}`)).status()).toBe(204);
  const oauth = await deviceLoginToken(bob);
  const scim = await createScimToken(ada, demo.acme);
  expect((await (await bearer(oauth)).get('/v1/organizations')).status()).toBe(200);

  const url = `https://example.test/acme/leaky/blob/${unique}/.env`;
  const items = [
    leak(live.secret, url),
    leak(revoked.secret),
    leak(badChecksum(live.secret)),
    leak(oauth),
    leak(scim),
    leak(NEVER_ISSUED + '000000'),
  ];
  const res = await postReport(JSON.stringify(items), serverScannerKey());
  expect(res.status, res.text).toBe(200);
  const answer = JSON.parse(res.text) as ReportAnswer[];
  expect(answer.map((a) => a.label)).toEqual([
    'true_positive',
    'true_positive',
    'false_positive',
    'true_positive',
    'true_positive',
    'false_positive',
  ]);
  expect(answer.map((a) => a.token_hash)).toEqual(items.map((i) => sha256(i.token)));
  expect(answer.every((a) => a.token_type === 'svc_token')).toBe(true);

  expect(await statusWithKey(request, live.secret)).toBe(401);
  expect((await (await bearer(oauth)).get('/v1/organizations')).status()).toBe(401);
  expect((await request.get('/scim/v2/Users', { headers: { Authorization: `Bearer ${scim}` } })).status()).toBe(401);

  // The owner's notice: which key, where, when. Visible to the owner and to admins, not to others.
  const notices = (await (await bob.get(`/v1/organizations/${demo.acme}/api-key-leaks`)).json()).items as {
    keyId: string;
    name: string;
    url: string;
    leakedAt: string;
  }[];
  const notice = notices.find((n) => n.keyId === live.apiKey.id);
  expect(notice).toMatchObject({ name: live.apiKey.name, url, prefix: live.apiKey.prefix });
  expect(Date.now() - new Date(notice!.leakedAt).getTime()).toBeLessThan(60_000);
  expect(notices.map((n) => n.keyId)).not.toContain(revoked.apiKey.id);
  const adaSees = (await (await ada.get(`/v1/organizations/${demo.acme}/api-key-leaks`)).json()).items;
  expect(adaSees.map((n: { keyId: string }) => n.keyId)).toContain(live.apiKey.id);
  const cy = await as('cy');
  expect((await (await cy.get(`/v1/organizations/${demo.acme}/api-key-leaks`)).json()).items).toEqual([]);
  await expectError(
    await cy.delete(`/v1/organizations/${demo.acme}/api-key-leaks/${live.apiKey.id}`),
    403,
    'access_denied',
  );
  expect((await bob.delete(`/v1/organizations/${demo.acme}/api-key-leaks/${live.apiKey.id}`)).status()).toBe(204);
  await expectError(
    await bob.delete(`/v1/organizations/${demo.acme}/api-key-leaks/${live.apiKey.id}`),
    404,
    'not_found',
  );

  // The revocation's audit event: by the scanner, reason `leaked`, with the url; the key revoked before has none.
  const revocations = async (keyId: string) =>
    (await auditEventsAbout(ada, demo.acme, keyId)).filter((e) => e.action === 'api_key.revoked');
  const leaked = await revocations(live.apiKey.id);
  expect(leaked).toHaveLength(1);
  expect(leaked[0]).toMatchObject({
    actor: { type: 'secret_scanner', id: null, via: null, credential: null },
    target: { type: 'api_key', id: live.apiKey.id },
    reason: 'leaked',
    context: { url },
  });
  expect((await revocations(revoked.apiKey.id)).map((e) => e.reason)).not.toContain('leaked');

  // Reported again: still a true positive, nothing more to revoke, and no second event.
  const again = await postReport(JSON.stringify([leak(live.secret)]), serverScannerKey());
  expect(JSON.parse(again.text)[0].label).toBe('true_positive');
  expect(await revocations(live.apiKey.id)).toHaveLength(1);
});

test('no signature, a tampered body, another key or an unknown key id: 401 and nothing revoked', async ({
  as,
  demo,
  request,
}) => {
  const bob = await as('bob');
  const live = await createKey(bob, demo.acme, { name: `not-leaked-${Date.now()}` });
  const body = JSON.stringify([leak(live.secret)]);
  const key = serverScannerKey();
  const stranger = newScannerKey(key.keyId);
  const cases: Record<string, string>[] = [
    { 'Content-Type': 'application/json' },
    { 'Secret-Scanning-Key-Identifier': key.keyId },
    { 'Secret-Scanning-Key-Identifier': key.keyId, 'Secret-Scanning-Signature': signatureFor(`${body} `, key) },
    { 'Secret-Scanning-Key-Identifier': key.keyId, 'Secret-Scanning-Signature': signatureFor(body, stranger) },
    { 'Secret-Scanning-Key-Identifier': 'unknown-key', 'Secret-Scanning-Signature': signatureFor(body, key) },
    { 'Secret-Scanning-Key-Identifier': key.keyId, 'Secret-Scanning-Signature': 'garbage' },
  ];
  for (const headers of cases) {
    const res = await request.post('/v1/secret-scanning/reports', { data: body, headers });
    await expectError(res, 401, 'unauthenticated');
  }
  expect(await statusWithKey(request, live.secret)).toBe(200);

  // GitHub's header names are accepted too.
  const github = await postReport(body, key, {
    headers: {
      'Content-Type': 'application/json',
      'GITHUB-PUBLIC-KEY-IDENTIFIER': key.keyId,
      'GITHUB-PUBLIC-KEY-SIGNATURE': signatureFor(body, key),
    },
  });
  expect(github.status, github.text).toBe(200);
  expect(await statusWithKey(request, live.secret)).toBe(401);
});

test('a signed but malformed report is 400 at its path; an empty or oversized batch too', async ({ request }) => {
  const key = serverScannerKey();
  const post = (body: string) =>
    request.post('/v1/secret-scanning/reports', {
      data: body,
      headers: { 'Secret-Scanning-Key-Identifier': key.keyId, 'Secret-Scanning-Signature': signatureFor(body, key) },
    });
  await expectError(await post('not json'), 400, 'invalid_request', ['']);
  await expectError(await post('{}'), 400, 'invalid_request', ['']);
  await expectError(await post('[]'), 400, 'invalid_request', ['']);
  await expectError(await post(JSON.stringify([{ token: 'x', type: 't', url: 'u' }])), 400, 'invalid_request', [
    '0.source',
  ]);
  const tooMany = JSON.stringify(Array.from({ length: 1001 }, () => leak('x')));
  await expectError(await post(tooMany), 400, 'invalid_request', ['']);
});

test('a 1,000-item batch is answered in full, in order', async ({ as, demo, request }) => {
  const bob = await as('bob');
  const live = await createKey(bob, demo.acme, { name: `in-a-crowd-${Date.now()}` });
  const items = Array.from({ length: 1000 }, (_, i) =>
    leak(
      i === 500
        ? live.secret
        : i % 3 === 0
          ? `svc_${String(i).padStart(34, '0')}000000`
          : `noise-${i}-${'x'.repeat(200)}`,
    ),
  );
  const res = await postReport(JSON.stringify(items), serverScannerKey());
  expect(res.status, res.text).toBe(200);
  const answer = JSON.parse(res.text) as ReportAnswer[];
  expect(answer).toHaveLength(1000);
  expect(answer.filter((a) => a.label === 'true_positive').map((a) => a.token_hash)).toEqual([sha256(live.secret)]);
  expect(await statusWithKey(request, live.secret)).toBe(401);
});

test.describe('two instances on one PostgreSQL', () => {
  test.skip(!process.env.DATABASE_URL, 'needs PostgreSQL (DATABASE_URL): the embedded database is one process');
  let a: Spawned;
  let b: Spawned;
  const partner = newScannerKey('partner-two-instances');

  test.beforeAll(async () => {
    // A spawned server on a fresh database runs every migration first: slow on a busy machine.
    test.setTimeout(120_000);
    const env = {
      DATABASE_URL: process.env.DATABASE_URL!,
      SECRET_SCANNING_PUBLIC_KEYS: partner.env,
      RATE_LIMIT_NAMESPACE: `leak-${Date.now()}-`,
    };
    [a, b] = await Promise.all([spawnServer(E2E.port + 22, env), spawnServer(E2E.port + 23, env)]);
  });
  test.afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  test('a key reported to one instance is refused by the other within a second', async ({ demo }) => {
    const bob = await sessionFor('bob', a.url);
    const live = await createKey(bob, demo.acme, { name: `two-instance leak ${Date.now()}` });
    const onB = await bearer(live.secret, b.url);
    expect((await onB.get('/v1/organizations')).status()).toBe(200); // now cached on B
    const res = await postReport(JSON.stringify([leak(live.secret)]), partner, { url: a.url });
    expect(res.status, res.text).toBe(200);
    expect(JSON.parse(res.text)[0].label).toBe('true_positive');
    await expect
      .poll(async () => (await onB.get('/v1/organizations')).status(), { timeout: 1_000, intervals: [50] })
      .toBe(401);
    await Promise.all([bob.dispose(), onB.dispose()]);
  });
});
