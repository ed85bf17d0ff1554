import { randomUUID } from 'node:crypto';
import type { APIRequestContext, APIResponse } from '@playwright/test';
import pg from 'pg';
import { bearer, expect, expectError, sessionFor, test } from '../fixtures';
import { createKey } from '../support/api-keys';
import { E2E } from '../support/env';
import {
  batchMessage,
  binaryMessage,
  createQueue,
  listQueues,
  messagesPath,
  publishedIds,
  queueNamed,
  queuesPath,
  sdkEvent,
  sendMessage,
  structuredMessage,
  type Queue,
} from '../support/queues';
import { spawnServer, type Spawned } from '../support/spawn-server';

// What a publish stores, read from the database: a server of this file's own on a PostgreSQL database of its own
// (in either run; docs/testing.md), with the demo data and small quotas. Its demo subscriptions are only this file's.
const PG_BASE =
  process.env.PGURL_BASE ??
  (process.env.DATABASE_URL
    ? Object.assign(new URL(process.env.DATABASE_URL), { pathname: '' }).href.replace(/\/$/, '')
    : 'postgres://postgres@127.0.0.1:5432');
const DATABASE = `svc_e2e_queues_${E2E.port}`;
const MAX_QUEUES = 3;
const MAX_BACKLOG = 120;
const METRICS_TOKEN = 'queues-metrics-token-0123456789';

test.describe.configure({ mode: 'serial', timeout: 120_000 });

let admin: pg.Client;
let db: pg.Client;
let server: Spawned;
let ada: APIRequestContext;
let orgId: string;
let production: string;
let staging: string;
let orders: Queue;

/** How many rows the publish tables hold: what "nothing stored" compares. */
async function counts() {
  const { rows } = await db.query(
    'select (select count(*)::int from queue_messages) as messages, (select count(*)::int from subscription_messages) as fanned',
  );
  return rows[0] as { messages: number; fanned: number };
}

async function published(): Promise<number> {
  const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const line = (await res.text()).split('\n').find((l) => l.startsWith('svc_queue_messages_published_total '));
  // The counter is made when the first publish loads its module: none yet is 0.
  return line ? Number(line.split(' ')[1]) : 0;
}

test.beforeAll(async () => {
  // A spawned server on a fresh database runs every migration first: slow on a busy machine.
  test.setTimeout(120_000);
  admin = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
  await admin.connect();
  await admin.query(`drop database if exists ${DATABASE} with (force)`);
  await admin.query(`create database ${DATABASE}`);
  server = await spawnServer(E2E.port + 92, {
    DATABASE_URL: `${PG_BASE}/${DATABASE}`,
    SEED_DEMO: '1',
    QUEUES_MAX_PER_PROJECT: String(MAX_QUEUES),
    QUEUE_MAX_BACKLOG: String(MAX_BACKLOG),
    METRICS_TOKEN,
  });
  db = new pg.Client({ connectionString: `${PG_BASE}/${DATABASE}` });
  await db.connect();
  ada = await sessionFor('ada', server.url);
  const list = async (path: string) =>
    ((await (await ada.get(path)).json()) as { items: { id: string; name: string }[] }).items;
  orgId = (await list('/v1/organizations')).find((o) => o.name === 'Acme')!.id;
  const projects = await list(`/v1/organizations/${orgId}/projects`);
  production = projects.find((p) => p.name === 'Production')!.id;
  staging = projects.find((p) => p.name === 'Staging')!.id;
  orders = await queueNamed(ada, orgId, production, 'orders');
});

test.afterAll(async () => {
  await ada?.dispose();
  await db?.end();
  await server?.stop();
  await admin.query(`drop database if exists ${DATABASE} with (force)`);
  await admin.end();
});

test('a publish stores each message once, and pending for every subscription of the queue from its delay', async () => {
  const before = await published();
  const subscriptions = (
    await db.query("select id, state, target->>'kind' as kind from subscriptions where queue_id = $1", [orders.id])
  ).rows as { id: string; state: string; kind: string }[];
  expect(subscriptions).toHaveLength(3);
  const ids = await publishedIds(
    await ada.post(messagesPath(orders), {
      data: {
        messages: [
          { body: { order: 1, lines: [{ sku: 'a', qty: 2 }] }, attributes: { kind: 'order', 'trace.id': 'x-1' } },
          { body: 'second', delaySeconds: 90 },
        ],
      },
    }),
  );
  const { rows: messages } = await db.query(
    'select id, organization_id, queue_id, body, attributes, published_at from queue_messages where id = any($1)',
    [ids],
  );
  const byId = new Map(messages.map((m) => [m.id as string, m]));
  expect(ids.map((id) => byId.get(id)?.body)).toEqual([{ order: 1, lines: [{ sku: 'a', qty: 2 }] }, 'second']);
  expect(ids.map((id) => byId.get(id)?.attributes)).toEqual([{ kind: 'order', 'trace.id': 'x-1' }, {}]);
  for (const m of messages) expect([m.organization_id, m.queue_id]).toEqual([orgId, orders.id]);

  const { rows } = await db.query(
    `select subscription_id, message_id, state, attempts, delivery_id, available_at, published_at
     from subscription_messages where message_id = any($1) order by subscription_id, message_id`,
    [ids],
  );
  expect(rows).toHaveLength(6);
  for (const sub of subscriptions) expect(rows.filter((r) => r.subscription_id === sub.id)).toHaveLength(2);
  // A delivery may lease an active https subscription's rows at once; the paused and the workflow ones stay as stored.
  const idle = new Set(
    subscriptions.filter((sub) => sub.state === 'paused' || sub.kind === 'workflow').map((sub) => sub.id),
  );
  expect(idle.size).toBe(2);
  for (const row of rows) {
    const at = (byId.get(row.message_id)!.published_at as Date).getTime();
    expect((row.published_at as Date).getTime()).toBe(at);
    if (!idle.has(row.subscription_id)) continue;
    expect(row).toMatchObject({ state: 'pending', attempts: 0, delivery_id: null });
    expect((row.available_at as Date).getTime()).toBe(at + (row.message_id === ids[1] ? 90_000 : 0));
  }
  expect(await published()).toBe(before + 2);
});

/** A refused publish: the exact envelope, its issue paths, and not one row more. */
async function refusedWhole(res: APIResponse | Response, paths: string[]) {
  const status = 'status' in res && typeof res.status === 'number' ? res.status : (res as APIResponse).status();
  const text = await res.text();
  expect(status, text).toBe(400);
  const { error } = JSON.parse(text) as { error: { code: string; message: string; issues: { path: string }[] } };
  expect(Object.keys(error).sort()).toEqual(['code', 'issues', 'message']);
  expect(error.code).toBe('invalid_request');
  expect(error.issues.map((i) => i.path).sort()).toEqual([...paths].sort());
}

test('every bad input is 400 at its path, and stores nothing: not one message, not one of its many rows', async () => {
  const before = await counts();
  const metric = await published();
  const post = (data: unknown) => ada.post(messagesPath(orders), { data: data as Record<string, unknown> });
  const ok = { body: { order: 1 } };
  const cases: [unknown, string[]][] = [
    [{}, ['messages']],
    [{ messages: [] }, ['messages']],
    [{ messages: Array.from({ length: 101 }, () => ok) }, ['messages']],
    [{ messages: [ok, {}] }, ['messages.1.body']],
    [{ messages: [ok, { body: 'x'.repeat(128 * 1024) }] }, ['messages.1.body']],
    [
      { messages: [{ ...ok, attributes: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`a${i}`, 'v'])) }] },
      ['messages.0.attributes'],
    ],
    [
      { messages: [{ ...ok, attributes: { 'no spaces': 'v', long: 'v'.repeat(257), n: 1 } }] },
      ['messages.0.attributes.no spaces', 'messages.0.attributes.long', 'messages.0.attributes.n'],
    ],
    [
      { messages: [ok, { ...ok, delaySeconds: 901 }, { ...ok, delaySeconds: 1.5 }] },
      ['messages.1.delaySeconds', 'messages.2.delaySeconds'],
    ],
    [{ messages: [{ ...ok, id: randomUUID() }], queueId: orders.id }, ['messages.0.id', 'queueId']],
    [{ messages: [{ body: { text: 'a\u0000b' } }] }, ['messages.0.body.text']],
  ];
  for (const [data, paths] of cases) await refusedWhole(await post(data), paths);
  await refusedWhole(
    await ada.post(messagesPath(orders), { data: 'not json', headers: { 'content-type': 'application/json' } }),
    [''],
  );

  // The same rules for CloudEvents, at the event's own paths.
  const { secret } = await createKey(ada, orgId, { name: 'bad cloudevents', expiresInDays: 1 });
  const url = `${server.url}${messagesPath(orders)}`;
  const auth = { authorization: `Bearer ${secret}` };
  const batch = JSON.parse(batchMessage([sdkEvent(), sdkEvent()]).body as string) as Record<string, unknown>[];
  delete batch[1].type;
  await refusedWhole(await sendMessage(url, { ...batchMessage([]), body: JSON.stringify(batch) }, auth), ['1.type']);
  const big = structuredMessage(sdkEvent({ data: 'x'.repeat(128 * 1024) }));
  await refusedWhole(await sendMessage(url, big, auth), ['']);
  const binary = binaryMessage(sdkEvent());
  await refusedWhole(await sendMessage(url, binary, { ...auth, 'ce-specversion': '0.3' }), ['ce-specversion']);

  expect(await counts()).toEqual(before);
  expect(await published()).toBe(metric);
});

test('Idempotency-Key: a retry answers the same ids and stores nothing twice', async () => {
  const body = { messages: [{ body: 'once' }, { body: 'only once' }] };
  const key = randomUUID();
  const first = await publishedIds(
    await ada.post(messagesPath(orders), { data: body, headers: { 'Idempotency-Key': key } }),
  );
  const after = await counts();
  const retry = await ada.post(messagesPath(orders), { data: body, headers: { 'Idempotency-Key': key } });
  expect(await publishedIds(retry)).toEqual(first);
  expect(retry.headers()['idempotent-replayed']).toBe('true');
  await expectError(
    await ada.post(messagesPath(orders), {
      data: { messages: [{ body: 'other' }] },
      headers: { 'Idempotency-Key': key },
    }),
    409,
    'idempotency_conflict',
  );
  expect(await counts()).toEqual(after);
  const { rows } = await db.query('select count(*)::int as n from subscription_messages where message_id = any($1)', [
    first,
  ]);
  expect(rows[0].n).toBe(6);
});

test('CloudEvents from the SDK are stored as the event in structured JSON form', async () => {
  const { secret } = await createKey(ada, orgId, { name: 'cloudevents', expiresInDays: 1 });
  const url = `${server.url}${messagesPath(orders)}`;
  const auth = { authorization: `Bearer ${secret}` };
  const body = async (id: string) =>
    (await db.query('select body from queue_messages where id = $1', [id])).rows[0].body as Record<string, unknown>;

  const structured = sdkEvent({ subject: 'order-7', partitionkey: 'p-1' });
  const [s] = await publishedIds(await sendMessage(url, structuredMessage(structured), auth));
  expect(await body(s)).toEqual(JSON.parse(structuredMessage(structured).body as string));

  const binary = sdkEvent({ subject: 'order-8' });
  const [b] = await publishedIds(await sendMessage(url, binaryMessage(binary), auth));
  expect(await body(b)).toEqual({
    specversion: '1.0',
    id: binary.id,
    source: '/e2e/orders',
    type: 'com.example.order.created',
    subject: 'order-8',
    time: binary.time,
    datacontenttype: 'application/json; charset=utf-8',
    data: { order: 7 },
  });
  const bytes = Buffer.from([0x00, 0xff, 0x10, 0x80]);
  const octets = sdkEvent({ datacontenttype: 'application/octet-stream', data: bytes });
  const [o] = await publishedIds(await sendMessage(url, binaryMessage(octets), auth));
  expect(await body(o)).toMatchObject({
    datacontenttype: 'application/octet-stream',
    data_base64: bytes.toString('base64'),
  });

  const events = [sdkEvent({ id: 'b-1' }), sdkEvent({ id: 'b-2', data: 'two' })];
  const batch = await publishedIds(await sendMessage(url, batchMessage(events), auth));
  expect((await Promise.all(batch.map(body))).map((e) => [e.id, e.data])).toEqual([
    ['b-1', { order: 7 }],
    ['b-2', 'two'],
  ]);
});

test(`past QUEUES_MAX_PER_PROJECT (${MAX_QUEUES}), a new queue is 409 quota_exceeded with its quota, nothing made`, async () => {
  // Production has the demo's `orders`.
  for (const name of ['second', 'third']) await createQueue(ada, orgId, production, { name });
  const error = await expectError(
    await ada.post(queuesPath(orgId, production), { data: { name: 'fourth' } }),
    409,
    'quota_exceeded',
  );
  expect(error.quota).toEqual({
    id: 'queues_per_project',
    kind: 'allocation',
    limit: MAX_QUEUES,
    used: MAX_QUEUES,
    scope: 'project',
    scopeResourceName: `organizations/${orgId}/projects/${production}`,
  });
  expect((await listQueues(ada, orgId, production)).map((q) => q.name).sort()).toEqual(['orders', 'second', 'third']);
});

test(`past QUEUE_MAX_BACKLOG (${MAX_BACKLOG}), a publish is 409 quota_exceeded naming the subscription, nothing stored`, async () => {
  const events = await queueNamed(ada, orgId, staging, 'events');
  const [sub] = (await db.query('select id from subscriptions where queue_id = $1', [events.id])).rows as {
    id: string;
  }[];
  const hundred = { messages: Array.from({ length: 100 }, (_, i) => ({ body: i })) };
  await publishedIds(await ada.post(messagesPath(events), { data: hundred }));
  const before = await counts();
  const error = await expectError(
    await ada.post(messagesPath(events), { data: { messages: hundred.messages.slice(0, 21) } }),
    409,
    'quota_exceeded',
  );
  expect(error.quota).toEqual({
    id: 'queue_backlog',
    kind: 'allocation',
    limit: MAX_BACKLOG,
    used: 100,
    scope: 'resource',
    scopeResourceName: `organizations/${orgId}/projects/${staging}/subscriptions/${sub.id}`,
  });
  expect(await counts()).toEqual(before);
  // Up to the limit still goes in.
  await publishedIds(await ada.post(messagesPath(events), { data: { messages: hundred.messages.slice(0, 20) } }));
  const key = await createKey(ada, orgId, { name: 'backlog', expiresInDays: 1 });
  const asKey = await bearer(key.secret, server.url);
  await expectError(
    await asKey.post(messagesPath(events), { data: { messages: [{ body: 1 }] } }),
    409,
    'quota_exceeded',
  );
  await asKey.dispose();
});
