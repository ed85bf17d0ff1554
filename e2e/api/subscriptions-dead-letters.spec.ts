import { randomUUID } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { expect, expectError, loadDemo, readFixtures, sessionFor, test, type Demo } from '../fixtures';
import { eventsAfter, newestSeq } from '../support/audit';
import { loadDemoSubs, subPath, subsPath, type DemoSubs } from '../support/subscriptions';
import { SEEDED_DELIVERY } from '../support/seeded-delivery';
import type { DeadLetterFixture } from '../support/subscriptions-seed';

// The fixture (e2e/support/subscriptions-seed.ts) is a paused workflow subscription in Acme/Staging with three dead
// letters, one ready and one delayed message and a failed delivery: no API makes dead letters on demand. These
// tests run in order and the last one deletes it.
test.describe.configure({ mode: 'serial' });

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
type DeadLetter = { messageId: string; deadLetteredAt: string; [field: string]: unknown };
type Page<T> = { items: T[]; nextCursor: string | null };

let demo: Demo;
let subs: DemoSubs;
let fixture: DeadLetterFixture;
let url: string;
let ada: APIRequestContext;
let cy: APIRequestContext;

test.beforeAll(async () => {
  demo = await loadDemo();
  subs = await loadDemoSubs(demo);
  fixture = readFixtures().deadLetters;
  url = `${subsPath(demo.acme, demo.staging)}/${fixture.subscriptionId}`;
  ada = await sessionFor('ada');
  cy = await sessionFor('cy');
});
test.afterAll(async () => {
  await ada.dispose();
  await cy.dispose();
});

async function json<T>(ctx: APIRequestContext, path: string): Promise<T> {
  const res = await ctx.get(path);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as T;
}

test('dead letters list oldest dead-lettered first, with their messages, page by page', async () => {
  const first = await json<Page<DeadLetter>>(cy, `${url}/dead-letters?limit=2`);
  const second = await json<Page<DeadLetter>>(cy, `${url}/dead-letters?limit=2&cursor=${first.nextCursor}`);
  expect(second.nextCursor).toBeNull();
  const all = [...first.items, ...second.items];
  expect(all.map((d) => d.messageId)).toEqual(fixture.deadLetterIds);
  expect(all[0]).toEqual({
    messageId: fixture.deadLetterIds[0],
    body: { n: 0 },
    attributes: { n: '0' },
    publishedAt: expect.stringMatching(ISO_MS),
    attempts: 5,
    lastError: { at: expect.stringMatching(ISO_MS), class: 'http', message: 'Target answered 500', status: 500 },
    deadLetteredAt: expect.stringMatching(ISO_MS),
  });
  expect(all.map((d) => d.deadLetteredAt)).toEqual(all.map((d) => d.deadLetteredAt).sort());
  await expectError(await cy.get(`${url}/dead-letters?cursor=nope`), 400, 'invalid_cursor');
});

test('activity: the backlog split as defined and exactly 60 minutes; deliveries newest first', async () => {
  const minute = () => new Date(Math.floor(Date.now() / 60_000) * 60_000).toISOString();
  const asked = minute();
  type Minute = { at: string; delivered: number; failed: number; deadLettered: number; expired: number };
  const activity = await json<{ backlog: Record<string, unknown>; minutes: Minute[] }>(cy, `${url}/activity`);
  expect(activity.backlog).toEqual({
    ready: 1,
    delayed: 1,
    inFlight: 0,
    deadLettered: 3,
    oldestReadyAt: expect.stringMatching(ISO_MS),
  });
  expect(activity.minutes).toHaveLength(60);
  // The current minute last (the one asked in, or the next if the answer crossed into it).
  expect([asked, minute()]).toContain(activity.minutes[59].at);
  expect(activity.minutes.every((m) => m.delivered + m.failed + m.deadLettered + m.expired === 0)).toBe(true);
  const deliveries = await json<Page<Record<string, unknown>>>(cy, `${url}/deliveries`);
  expect(deliveries).toEqual({
    items: [
      {
        id: expect.any(String),
        startedAt: expect.stringMatching(ISO_MS),
        ...SEEDED_DELIVERY,
      },
    ],
    nextCursor: null,
  });
});

test('discard: 204 with its event; the same again, or an id that is no dead letter, is 404', async () => {
  const seq = await newestSeq(ada, demo.acme);
  const [gone] = fixture.deadLetterIds;
  expect((await ada.delete(`${url}/dead-letters/${gone}`)).status()).toBe(204);
  for (const id of [gone, randomUUID()])
    await expectError(await ada.delete(`${url}/dead-letters/${id}`), 404, 'not_found');
  await expectError(await ada.delete(`${url}/dead-letters/not-a-uuid`), 404, 'not_found');
  const events = await eventsAfter(ada, demo.acme, seq);
  expect(events.map((e) => [e.action, e.target.id, e.changes])).toEqual([
    ['subscription.dead_letter_discarded', fixture.subscriptionId, [{ field: 'messageId', from: gone, to: null }]],
  ]);
  const left = await json<Page<DeadLetter>>(cy, `${url}/dead-letters`);
  expect(left.items.map((d) => d.messageId)).toEqual(fixture.deadLetterIds.slice(1));
});

test('redrive: the named ones, then all; each writes its count; nothing left is 0 with no event', async () => {
  const redrive = (data: object) => ada.post(`${url}/dead-letters/redrive`, { data });
  await expectError(
    await redrive({ messageIds: Array.from({ length: 1001 }, () => randomUUID()) }),
    400,
    'invalid_request',
    ['messageIds'],
  );
  const seq = await newestSeq(ada, demo.acme);
  const named = await redrive({ messageIds: [fixture.deadLetterIds[1], randomUUID()] });
  expect(named.status(), await named.text()).toBe(202);
  expect(await named.json()).toEqual({ redriven: 1 });
  const all = await redrive({});
  expect(await all.json()).toEqual({ redriven: 1 });
  expect(await (await redrive({})).json()).toEqual({ redriven: 0 });
  expect((await eventsAfter(ada, demo.acme, seq)).map((e) => [e.action, e.changes])).toEqual([
    ['subscription.dead_letters_redriven', [{ field: 'redriven', from: null, to: 1 }]],
    ['subscription.dead_letters_redriven', [{ field: 'redriven', from: null, to: 1 }]],
  ]);
  expect((await json<Page<DeadLetter>>(cy, `${url}/dead-letters`)).items).toEqual([]);
  // Paused: the redriven messages wait in the backlog, ready.
  const { backlog } = await json<{ backlog: Record<string, number> }>(cy, `${url}/activity`);
  expect(backlog).toMatchObject({ ready: 3, delayed: 1, inFlight: 0, deadLettered: 0 });
});

test('a subscription without dead letters: an empty list, a redrive of nothing, a 404 discard', async () => {
  const demoSub = subPath(subs.https);
  expect(await json(cy, `${demoSub}/dead-letters`)).toEqual({ items: [], nextCursor: null });
  expect(await (await ada.post(`${demoSub}/dead-letters/redrive`, { data: {} })).json()).toEqual({ redriven: 0 });
  await expectError(await ada.delete(`${demoSub}/dead-letters/${randomUUID()}`), 404, 'not_found');
  // The fixture is Staging's: under Production's path it is 404.
  await expectError(
    await ada.get(`${subsPath(demo.acme, demo.production)}/${fixture.subscriptionId}/dead-letters`),
    404,
    'not_found',
  );
});

test('deleting the subscription takes its backlog: every read of it is 404 after', async () => {
  expect((await ada.delete(url)).status()).toBe(204);
  for (const path of ['', '/activity', '/deliveries', '/dead-letters'])
    await expectError(await ada.get(`${url}${path}`), 404, 'not_found');
});
