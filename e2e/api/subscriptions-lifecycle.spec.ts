import { randomUUID } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { DEFAULT_RETRY_POLICY, DEFAULTS } from '../../lib/subscriptions/schema';
import { bearer, expect, expectError, loadDemo, sessionFor, test, type Demo } from '../fixtures';
import { eventsAfter, newestSeq } from '../support/audit';
import { staleSessionLike } from '../support/second-factor';
import {
  createSub,
  listSubs,
  loadDemoSubs,
  subIds,
  subPath,
  subsPath,
  type DemoSubs,
  type Sub,
} from '../support/subscriptions';

const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
const target = { kind: 'https', url: 'https://hooks.example.com/lifecycle' };

let demo: Demo;
let subs: DemoSubs;
let ada: APIRequestContext;
let bob: APIRequestContext;

test.beforeAll(async () => {
  demo = await loadDemo();
  subs = await loadDemoSubs(demo);
  ada = await sessionFor('ada');
  bob = await sessionFor('bob');
});
test.afterAll(async () => {
  await ada.dispose();
  await bob.dispose();
});

const production = () => subsPath(demo.acme, demo.production);

test('bob creates a subscription: 201 with defaults, a healthy status and its secret, shown once and never read', async () => {
  const seq = await newestSeq(ada, demo.acme);
  const res = await bob.post(production(), { data: { queueId: subs.https.queueId, target } });
  expect(res.status(), await res.text()).toBe(201);
  expect(res.headers()['cache-control']).toBe('no-store');
  const created = (await res.json()) as Sub & { signingSecret: string };
  try {
    expect(created).toMatchObject({
      organizationId: demo.acme,
      projectId: demo.production,
      queueId: subs.https.queueId,
      state: 'active',
      // The schema's defaults, as the OpenAPI document states them (their values are pinned by the service's test).
      batchSize: DEFAULTS.batchSize,
      maxConcurrency: DEFAULTS.maxConcurrency,
      target: { ...target, timeoutSeconds: DEFAULTS.timeoutSeconds },
      retryPolicy: DEFAULT_RETRY_POLICY,
      status: { health: 'healthy', lastError: null, lastSuccessAt: null },
    });
    expect(created.slug).toMatch(/^qsb_[a-z0-9]{12}$/);
    expect(created.resourceName).toBe(
      `organizations/${demo.acme}/projects/${demo.production}/subscriptions/${created.id}`,
    );
    expect(created.signingSecret).toMatch(SECRET);
    const { signingSecret, ...resource } = created;
    const read = await bob.get(subPath(created));
    expect(await read.json()).toEqual(resource);
    const listed = (await listSubs(bob, demo.acme, demo.production)).find((s) => s.id === created.id);
    expect(listed).toEqual(resource);
    for (const body of [await read.text(), JSON.stringify(await listSubs(ada, demo.acme, demo.production))])
      expect(body).not.toContain(signingSecret);
    const events = await eventsAfter(ada, demo.acme, seq);
    expect(events.map((e) => [e.action, e.target.id, e.actor.name])).toEqual([
      ['subscription.created', created.id, 'Bob Builder'],
    ]);
    expect(JSON.stringify(events)).not.toContain(signingSecret);
  } finally {
    expect((await bob.delete(subPath(created))).status()).toBe(204);
  }
});

test('every field given, a workflow target, and a loopback http target (WEBHOOK_ALLOW_LOOPBACK=1 here)', async () => {
  const workflowId = randomUUID();
  const body = {
    batchSize: 3,
    maxConcurrency: 1,
    state: 'paused',
    retryPolicy: { maxAttempts: 2, maxBackoffSeconds: 20 },
  };
  const workflow = await createSub(bob, demo.acme, demo.production, {
    ...body,
    queueId: subs.https.queueId,
    target: { kind: 'workflow', workflowId },
  });
  const loopback = await createSub(bob, demo.acme, demo.production, {
    queueId: subs.https.queueId,
    target: { kind: 'https', url: 'http://127.0.0.1:9/receiver', timeoutSeconds: 5 },
  });
  try {
    expect(workflow).toMatchObject({
      ...body,
      target: { kind: 'workflow', workflowId },
      retryPolicy: { maxAttempts: 2, minBackoffSeconds: 10, maxBackoffSeconds: 20 },
    });
    expect(loopback.target).toEqual({ kind: 'https', url: 'http://127.0.0.1:9/receiver', timeoutSeconds: 5 });
    expect(loopback.signingSecret).not.toBe(workflow.signingSecret);
  } finally {
    for (const sub of [workflow, loopback]) expect((await bob.delete(subPath(sub))).status()).toBe(204);
  }
});

test.describe('refused creates: the exact 400, nothing stored', () => {
  const queueId = () => subs.https.queueId;
  const cases: [string, () => unknown, string[]][] = [
    ['an empty body', () => ({}), ['queueId', 'target']],
    ['a body that is not an object', () => [], ['']],
    ['a queueId that is not a UUID', () => ({ queueId: 'orders', target }), ['queueId']],
    ['an unknown queue', () => ({ queueId: randomUUID(), target }), ['queueId']],
    ['another project’s queue', () => ({ queueId: subs.staging.queueId, target }), ['queueId']],
    ['another organization’s queue', () => ({ queueId: subs.globex.queueId, target }), ['queueId']],
    ['an unknown target kind', () => ({ queueId: queueId(), target: { kind: 'email' } }), ['target.kind']],
    ['an https target without a url', () => ({ queueId: queueId(), target: { kind: 'https' } }), ['target.url']],
    [
      'a plain http url',
      () => ({ queueId: queueId(), target: { kind: 'https', url: 'http://hooks.example.com/' } }),
      ['target.url'],
    ],
    [
      'a private address',
      () => ({ queueId: queueId(), target: { kind: 'https', url: 'https://10.0.0.1/' } }),
      ['target.url'],
    ],
    [
      'a timeout of 0',
      () => ({ queueId: queueId(), target: { ...target, timeoutSeconds: 0 } }),
      ['target.timeoutSeconds'],
    ],
    [
      'a workflow id that is not a UUID',
      () => ({ queueId: queueId(), target: { kind: 'workflow', workflowId: 'x' } }),
      ['target.workflowId'],
    ],
    ['batchSize 11', () => ({ queueId: queueId(), target, batchSize: 11 }), ['batchSize']],
    ['maxConcurrency 0', () => ({ queueId: queueId(), target, maxConcurrency: 0 }), ['maxConcurrency']],
    ['an unknown state', () => ({ queueId: queueId(), target, state: 'deleted' }), ['state']],
    [
      'a maximum backoff below the default minimum',
      () => ({ queueId: queueId(), target, retryPolicy: { maxBackoffSeconds: 5 } }),
      ['retryPolicy.maxBackoffSeconds'],
    ],
    [
      'maxAttempts 101',
      () => ({ queueId: queueId(), target, retryPolicy: { maxAttempts: 101 } }),
      ['retryPolicy.maxAttempts'],
    ],
    [
      'unknown fields, at their paths',
      () => ({ queueId: queueId(), target: { ...target, foo: 1 }, slug: 'qsb_aaaaaaaaaaaa', retryPolicy: { x: 1 } }),
      ['target.foo', 'slug', 'retryPolicy.x'],
    ],
    [
      'every problem at once',
      () => ({ queueId: 'x', target: { kind: 'https', url: 'ftp://x/' }, batchSize: 0, state: 'on' }),
      ['queueId', 'target.url', 'batchSize', 'state'],
    ],
  ];
  for (const [what, body, paths] of cases) {
    test(`${what} → 400 at ${paths.join(', ') || '""'}`, async () => {
      const before = await subIds(ada, demo.acme, demo.production);
      const seq = await newestSeq(ada, demo.acme);
      await expectError(await bob.post(production(), { data: body() as object }), 400, 'invalid_request', paths);
      expect(await subIds(ada, demo.acme, demo.production)).toEqual(before);
      expect(await eventsAfter(ada, demo.acme, seq)).toEqual([]);
    });
  }
});

test('a queue takes 10 subscriptions: the 11th is 409 quota_exceeded with the quota, and nothing is stored', async () => {
  const staging = subs.staging;
  const inQueue = async () =>
    (await listSubs(ada, demo.acme, demo.staging)).filter((s) => s.queueId === staging.queueId);
  const made: Sub[] = [];
  try {
    for (let n = (await inQueue()).length; n < 10; n++)
      made.push(await createSub(ada, demo.acme, demo.staging, { queueId: staging.queueId, target, state: 'paused' }));
    const before = await subIds(ada, demo.acme, demo.staging);
    const seq = await newestSeq(ada, demo.acme);
    const error = await expectError(
      await ada.post(subsPath(demo.acme, demo.staging), { data: { queueId: staging.queueId, target } }),
      409,
      'quota_exceeded',
    );
    expect(error.quota).toEqual({
      id: 'subscriptions_per_queue',
      kind: 'allocation',
      limit: 10,
      used: 10,
      scope: 'resource',
      scopeResourceName: `organizations/${demo.acme}/projects/${demo.staging}/queues/${staging.queueId}`,
    });
    expect(await subIds(ada, demo.acme, demo.staging)).toEqual(before);
    expect(await eventsAfter(ada, demo.acme, seq)).toEqual([]);
  } finally {
    for (const sub of made) expect((await ada.delete(subPath(sub))).status()).toBe(204);
  }
  expect(await inQueue()).toHaveLength(1);
});

test('delete: 204 with its event, then 404 everywhere; unknown, another project’s or organization’s is 404', async () => {
  const created = await createSub(bob, demo.acme, demo.production, { queueId: subs.https.queueId, target });
  const seq = await newestSeq(ada, demo.acme);
  expect((await bob.delete(subPath(created))).status()).toBe(204);
  expect((await eventsAfter(ada, demo.acme, seq)).map((e) => [e.action, e.target.id])).toEqual([
    ['subscription.deleted', created.id],
  ]);
  for (const path of ['', '/activity', '/deliveries', '/dead-letters'])
    await expectError(await bob.get(`${subPath(created)}${path}`), 404, 'not_found');
  await expectError(await bob.delete(subPath(created)), 404, 'not_found');
  await expectError(await ada.delete(`${production()}/${subs.staging.id}`), 404, 'not_found');
  await expectError(await ada.delete(`${production()}/${subs.globex.id}`), 404, 'not_found');
  expect((await listSubs(ada, demo.acme, demo.production)).map((s) => s.id)).not.toContain(created.id);
});

test('rotate-secret is sudo: a session outside its window is 403, a fresh one and a key get a new secret', async ({
  fixtures,
}) => {
  const created = await createSub(bob, demo.acme, demo.production, { queueId: subs.https.queueId, target });
  const stale = await staleSessionLike(bob);
  const bot = await bearer(fixtures.keys.deployBot);
  try {
    const seq = await newestSeq(ada, demo.acme);
    // The delivery engine writes system events of earlier files' subscriptions whenever they land: only this
    // subscription's count here.
    const itsEvents = async () => (await eventsAfter(ada, demo.acme, seq)).filter((e) => e.target.id === created.id);
    await expectError(await stale.post(`${subPath(created)}/rotate-secret`), 403, 'reauthentication_required');
    expect(await itsEvents()).toEqual([]);
    const secrets = [created.signingSecret];
    for (const caller of [bob, bot]) {
      const res = await caller.post(`${subPath(created)}/rotate-secret`);
      expect(res.status(), await res.text()).toBe(200);
      expect(res.headers()['cache-control']).toBe('no-store');
      const body = (await res.json()) as { signingSecret: string };
      expect(Object.keys(body)).toEqual(['signingSecret']);
      expect(body.signingSecret).toMatch(SECRET);
      secrets.push(body.signingSecret);
    }
    expect(new Set(secrets).size).toBe(3);
    const events = await itsEvents();
    expect(events.map((e) => [e.action, e.target.id])).toEqual([
      ['subscription.secret_rotated', created.id],
      ['subscription.secret_rotated', created.id],
    ]);
    for (const secret of secrets) expect(JSON.stringify(events)).not.toContain(secret);
    expect(await (await bob.get(subPath(created))).text()).not.toContain('whsec_');
  } finally {
    await stale.dispose();
    await bot.dispose();
    expect((await bob.delete(subPath(created))).status()).toBe(204);
  }
});

test('cy (BasicAccess) gets 403 on every write, bob 403 in Staging; nothing changes and no event is written', async ({
  as,
}) => {
  const cy = await as('cy');
  const writes: [APIRequestContext, string, string, object?][] = [
    [cy, 'POST', production(), { queueId: subs.https.queueId, target }],
    [cy, 'DELETE', subPath(subs.https)],
    [cy, 'POST', `${subPath(subs.https)}/rotate-secret`],
    [cy, 'POST', `${subPath(subs.https)}/dead-letters/redrive`, {}],
    [cy, 'DELETE', `${subPath(subs.https)}/dead-letters/${randomUUID()}`],
    [bob, 'POST', subsPath(demo.acme, demo.staging), { queueId: subs.staging.queueId, target }],
    [bob, 'DELETE', subPath(subs.staging)],
    [bob, 'POST', `${subPath(subs.staging)}/rotate-secret`],
    [bob, 'POST', `${subPath(subs.staging)}/dead-letters/redrive`, {}],
    [bob, 'DELETE', `${subPath(subs.staging)}/dead-letters/${randomUUID()}`],
  ];
  const snapshot = async () => [
    await subIds(ada, demo.acme, demo.production),
    await subIds(ada, demo.acme, demo.staging),
    await (await ada.get(subPath(subs.staging))).json(),
  ];
  const before = await snapshot();
  const seq = await newestSeq(ada, demo.acme);
  for (const [caller, method, url, data] of writes)
    await expectError(await caller.fetch(url, { method, data }), 403, 'access_denied');
  expect(await snapshot()).toEqual(before);
  expect(await eventsAfter(ada, demo.acme, seq)).toEqual([]);
  // Reading is BasicAccess: cy sees the activity, deliveries and dead letters.
  for (const path of ['/activity', '/deliveries', '/dead-letters'])
    expect((await cy.get(`${subPath(subs.https)}${path}`)).status()).toBe(200);
});
