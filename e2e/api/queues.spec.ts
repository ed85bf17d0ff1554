import { randomUUID } from 'node:crypto';
import { bearer, expect, expectError, sessionFor, test } from '../fixtures';
import { createKey } from '../support/api-keys';
import { eventsAfter, newestSeq } from '../support/audit';
import { baseURL } from '../support/env';
import {
  batchMessage,
  binaryMessage,
  createQueue,
  listQueues,
  messagesPath,
  publishedIds,
  queueName,
  queueNamed,
  queuePublisher,
  queuePath,
  queuesPath,
  sdkEvent,
  sendMessage,
  structuredMessage,
  type Queue,
} from '../support/queues';

// The queues API on the suite's server. Nothing here publishes to a queue that has subscriptions: the demo's
// subscriptions are other files' fixtures. What a publish stores is read from the database in queues-publish.spec.ts.

test('ada creates, lists, reads, changes and deletes a queue; each change writes its event', async ({ as, demo }) => {
  const ada = await as('ada');
  const seq = await newestSeq(ada, demo.acme);
  const name = queueName('lifecycle');
  const res = await ada.post(queuesPath(demo.acme, demo.production), { data: { name } });
  expect(res.status(), await res.text()).toBe(201);
  const queue = (await res.json()) as Queue;
  expect(res.headers()['location']).toBe(queuePath(queue));
  expect(queue).toEqual({
    id: expect.any(String),
    organizationId: demo.acme,
    projectId: demo.production,
    name,
    slug: expect.stringMatching(/^que_[a-z0-9]{12}$/),
    resourceName: `organizations/${demo.acme}/projects/${demo.production}/queues/${queue.id}`,
    retentionSeconds: 345_600,
    createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    updatedAt: queue.createdAt,
  });
  expect(await (await ada.get(queuePath(queue))).json()).toEqual(queue);
  expect((await listQueues(ada, demo.acme, demo.production)).map((q) => q.id)).toContain(queue.id);

  // The same retention changes nothing; another is a strictly later updatedAt.
  const same = await ada.patch(queuePath(queue), { data: { retentionSeconds: 345_600 } });
  expect(await same.json()).toEqual(queue);
  const changed = await ada.patch(queuePath(queue), { data: { retentionSeconds: 60 } });
  expect(changed.status(), await changed.text()).toBe(200);
  const after = (await changed.json()) as Queue;
  expect(after.retentionSeconds).toBe(60);
  expect(Date.parse(after.updatedAt)).toBeGreaterThan(Date.parse(queue.updatedAt));
  await expectError(
    await ada.patch(queuePath(queue), { data: { name: 'other', retentionSeconds: 59 } }),
    400,
    'invalid_request',
    ['name', 'retentionSeconds'],
  );

  expect((await ada.delete(queuePath(queue))).status()).toBe(204);
  await expectError(await ada.get(queuePath(queue)), 404, 'not_found');
  await expectError(await ada.delete(queuePath(queue)), 404, 'not_found');

  const events = await eventsAfter(ada, demo.acme, seq);
  expect(events.map((e) => e.action)).toEqual(['queue.created', 'queue.updated', 'queue.deleted']);
  for (const event of events) {
    expect(event.target).toEqual({ type: 'queue', id: queue.id, name: queue.slug });
    expect(event.projectId).toBe(demo.production);
  }
  expect(events[0].changes).toEqual([
    { field: 'name', from: null, to: name },
    { field: 'retentionSeconds', from: null, to: 345_600 },
  ]);
  expect(events[1].changes).toEqual([{ field: 'retentionSeconds', from: 345_600, to: 60 }]);
});

test('the list pages oldest first, like the other lists', async ({ as, demo }) => {
  const ada = await as('ada');
  const made = [await createQueue(ada, demo.acme, demo.staging, { name: queueName('page-a') })];
  made.push(await createQueue(ada, demo.acme, demo.staging, { name: queueName('page-b') }));
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const res = await ada.get(`${queuesPath(demo.acme, demo.staging)}?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
    const page = (await res.json()) as { items: Queue[]; nextCursor: string | null };
    expect(page.items.length).toBeLessThanOrEqual(1);
    seen.push(...page.items.map((q) => q.id));
    cursor = page.nextCursor;
  } while (cursor);
  expect(seen.slice(-2)).toEqual(made.map((q) => q.id));
  expect(seen[0]).toBe((await queueNamed(ada, demo.acme, demo.staging, 'events')).id);
  await expectError(await ada.get(`${queuesPath(demo.acme, demo.staging)}?cursor=nope`), 400, 'invalid_cursor');
  for (const q of made) expect((await ada.delete(queuePath(q))).status()).toBe(204);
});

test('a taken name is 409 queue_name_taken and makes nothing; the same name in another project is fine', async ({
  as,
  demo,
}) => {
  const ada = await as('ada');
  const name = queueName('taken');
  const first = await createQueue(ada, demo.acme, demo.production, { name, retentionSeconds: 3600 });
  const seq = await newestSeq(ada, demo.acme);
  const refused = await expectError(
    await ada.post(queuesPath(demo.acme, demo.production), { data: { name } }),
    409,
    'queue_name_taken',
  );
  expect(refused.message).toContain(name);
  expect(await eventsAfter(ada, demo.acme, seq)).toEqual([]);
  expect((await listQueues(ada, demo.acme, demo.production)).filter((q) => q.name === name)).toHaveLength(1);
  const elsewhere = await createQueue(ada, demo.acme, demo.staging, { name });
  for (const q of [first, elsewhere]) expect((await ada.delete(queuePath(q))).status()).toBe(204);
});

test('a queue its subscriptions read from is not deleted: 409 queue_in_use, nothing changed', async ({ as, demo }) => {
  const ada = await as('ada');
  const orders = await queueNamed(ada, demo.acme, demo.production, 'orders');
  const seq = await newestSeq(ada, demo.acme);
  const error = await expectError(await ada.delete(queuePath(orders)), 409, 'queue_in_use');
  expect(error.message).toMatch(/3 subscriptions read from this queue/);
  expect(await (await ada.get(queuePath(orders))).json()).toEqual(orders);
  expect(await eventsAfter(ada, demo.acme, seq)).toEqual([]);
});

test('another project’s or organization’s queue, an unknown or malformed id: 404', async ({ as, demo }) => {
  const ada = await as('ada');
  const gil = await as('gil');
  const orders = await queueNamed(ada, demo.acme, demo.production, 'orders');
  const inStaging = `${queuesPath(demo.acme, demo.staging)}/${orders.id}`;
  await expectError(await ada.get(inStaging), 404, 'not_found');
  await expectError(await ada.patch(inStaging, { data: { retentionSeconds: 60 } }), 404, 'not_found');
  await expectError(await ada.delete(inStaging), 404, 'not_found');
  await expectError(await ada.post(`${inStaging}/messages`, { data: { messages: [{ body: 1 }] } }), 404, 'not_found');
  await expectError(await gil.get(queuePath(orders)), 404, 'not_found');
  await expectError(await gil.get(queuesPath(demo.acme, demo.production)), 404, 'not_found');
  await expectError(await ada.get(`${queuesPath(demo.acme, demo.production)}/${randomUUID()}`), 404, 'not_found');
  await expectError(await ada.get(`${queuesPath(demo.acme, demo.production)}/not-a-uuid`), 404, 'not_found');
});

test('who may: cy reads only; bob works in Production and gets 403 in Staging', async ({ as, demo }) => {
  const [ada, bob, cy] = [await as('ada'), await as('bob'), await as('cy')];
  const orders = await queueNamed(ada, demo.acme, demo.production, 'orders');
  const events = await queueNamed(ada, demo.acme, demo.staging, 'events');
  const seq = await newestSeq(ada, demo.acme);

  expect((await cy.get(queuePath(orders))).status()).toBe(200);
  expect((await cy.get(queuesPath(demo.acme, demo.production))).status()).toBe(200);
  await expectError(
    await cy.post(queuesPath(demo.acme, demo.production), { data: { name: 'nope' } }),
    403,
    'access_denied',
  );
  await expectError(await cy.patch(queuePath(orders), { data: { retentionSeconds: 60 } }), 403, 'access_denied');
  await expectError(await cy.delete(queuePath(orders)), 403, 'access_denied');
  // Refused before the body is read: even an invalid one is 403.
  await expectError(await cy.post(messagesPath(orders), { data: { messages: [{ body: 1 }] } }), 403, 'access_denied');
  await expectError(await cy.post(messagesPath(orders), { data: { messages: [] } }), 403, 'access_denied');

  const mine = await createQueue(bob, demo.acme, demo.production, { name: queueName('bob') });
  await publishedIds(await bob.post(messagesPath(mine), { data: { messages: [{ body: 'test message' }] } }));
  expect((await bob.delete(queuePath(mine))).status()).toBe(204);
  await expectError(
    await bob.post(queuesPath(demo.acme, demo.staging), { data: { name: 'nope' } }),
    403,
    'access_denied',
  );
  await expectError(await bob.post(messagesPath(events), { data: { messages: [{ body: 1 }] } }), 403, 'access_denied');
  await expectError(await bob.delete(queuePath(events)), 403, 'access_denied');

  expect((await eventsAfter(ada, demo.acme, seq)).map((e) => e.action)).toEqual(['queue.created', 'queue.deleted']);
});

test('a QueuePublisher bot’s key publishes and reads its queue, and may not list, create, change or delete', async ({
  as,
}) => {
  const { orgId, projectId, queue, secret } = await queuePublisher(await as('ada'));
  const bot = await bearer(secret);

  expect(await (await bot.get(queuePath(queue))).json()).toEqual(queue);
  const ids = await publishedIds(
    await bot.post(messagesPath(queue), { data: { messages: [{ body: { job: 1 } }, { body: { job: 2 } }] } }),
  );
  expect(ids).toHaveLength(2);
  await expectError(await bot.get(queuesPath(orgId, projectId)), 403, 'access_denied');
  await expectError(await bot.post(queuesPath(orgId, projectId), { data: { name: 'more' } }), 403, 'access_denied');
  await expectError(await bot.patch(queuePath(queue), { data: { retentionSeconds: 60 } }), 403, 'access_denied');
  await expectError(await bot.delete(queuePath(queue)), 403, 'access_denied');
  await bot.dispose();
});

test('publish answers 202 and one id per message, in order', async ({ as, demo }) => {
  const ada = await as('ada');
  const queue = await createQueue(ada, demo.acme, demo.production, { name: queueName('publish') });
  const messages = [
    { body: { n: 1 } },
    { body: 'two', attributes: { kind: 'text' } },
    { body: null, delaySeconds: 900 },
  ];
  const ids = await publishedIds(await ada.post(messagesPath(queue), { data: { messages } }));
  expect(ids).toHaveLength(3);
  expect(new Set(ids).size).toBe(3);
  expect((await ada.delete(queuePath(queue))).status()).toBe(204);
});

test.describe('CloudEvents, as the SDK’s HTTP emitter sends them', () => {
  let queue: Queue;
  let url: string;
  let auth: Record<string, string>;

  test.beforeAll(async ({ demo }) => {
    const ada = await sessionFor('ada');
    queue = await createQueue(ada, demo.acme, demo.production, { name: queueName('cloudevents') });
    const { secret } = await createKey(ada, demo.acme, { name: 'cloudevents e2e', expiresInDays: 1 });
    auth = { authorization: `Bearer ${secret}` };
    url = `${baseURL}${messagesPath(queue)}`;
    await ada.dispose();
  });
  test.afterAll(async () => {
    const ada = await sessionFor('ada');
    expect((await ada.delete(queuePath(queue))).status()).toBe(204);
    await ada.dispose();
  });

  test('structured, binary and batched events are published, one message each', async () => {
    expect(await publishedIds(await sendMessage(url, structuredMessage(sdkEvent()), auth))).toHaveLength(1);
    expect(
      await publishedIds(await sendMessage(url, binaryMessage(sdkEvent({ subject: 'order-7' })), auth)),
    ).toHaveLength(1);
    const batch = batchMessage([sdkEvent(), sdkEvent({ data: 'two' }), sdkEvent({ data: undefined })]);
    expect(await publishedIds(await sendMessage(url, batch, auth))).toHaveLength(3);
  });

  test('an event without id, source, specversion 1.0 or type is 400 at its path', async () => {
    const refused = async (res: Response, paths: string[]) => {
      const text = await res.text();
      expect(res.status, text).toBe(400);
      expect(res.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]+$/);
      const { error } = JSON.parse(text) as { error: { code: string; issues: { path: string }[] } };
      expect(error.code).toBe('invalid_request');
      expect(error.issues.map((i) => i.path).sort()).toEqual(paths);
    };
    const structured = structuredMessage(sdkEvent());
    const { source: _source, ...noSource } = JSON.parse(structured.body as string) as Record<string, unknown>;
    void _source;
    await refused(await sendMessage(url, { ...structured, body: JSON.stringify(noSource) }, auth), ['source']);
    await refused(
      await sendMessage(
        url,
        { ...structured, body: JSON.stringify({ ...noSource, source: '/s', specversion: '0.3' }) },
        auth,
      ),
      ['specversion'],
    );
    const batch = batchMessage([sdkEvent(), sdkEvent(), sdkEvent()]);
    const events = JSON.parse(batch.body as string) as Record<string, unknown>[];
    delete events[2].source;
    delete events[1].id;
    await refused(await sendMessage(url, { ...batch, body: JSON.stringify(events) }, auth), ['1.id', '2.source']);
    const binary = binaryMessage(sdkEvent());
    const headers = { ...(binary.headers as Record<string, string>) };
    delete headers['ce-source'];
    delete headers['ce-type'];
    await refused(await sendMessage(url, { ...binary, headers }, auth), ['ce-source', 'ce-type']);
  });
});
