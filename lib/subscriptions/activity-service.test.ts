import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { insertTestSubscription, newTestProject, onBothDatabases } from '../../server/testing/test-database';
import { insertTestMessages } from '../../server/testing/queue-messages';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import {
  DELIVERIES_KEPT_MS,
  listSubscriptionDeliveries,
  MINUTES_KEPT_MS,
  purgeSubscriptionRecords,
  subscriptionActivity,
} from './activity-service';

const MINUTE = 60_000;
const NOW = new Date('2030-06-01T12:34:56.789Z');
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs);

async function subscription() {
  const { scope } = await newTestProject('Activity');
  return { scope, sub: await insertTestSubscription(scope) };
}

await onBothDatabases('subscription activity', 'sub-activity', () => {
  it('splits the backlog as the definitions say, and names the oldest ready message', async () => {
    const { scope, sub } = await subscription();
    const delivery = randomUUID();
    await insertTestMessages(
      sub,
      [
        // In flight: leased, the lease still ahead.
        { deliveryId: delivery, availableAt: at(30_000) },
        { deliveryId: delivery, availableAt: at(30_000) },
        // Delayed: a retry or a publish delay, not leased.
        { availableAt: at(5 * MINUTE) },
        // Ready: due, and a lease that ran out (its delivery id still set).
        { availableAt: at(-MINUTE) },
        { deliveryId: randomUUID(), availableAt: at(-1) },
        { availableAt: NOW },
        { state: 'dead', deadLetteredAt: at(-MINUTE) },
      ],
      at(-10 * MINUTE),
    );
    const { backlog } = await subscriptionActivity(scope, sub.id, NOW);
    expect(backlog).toEqual({
      ready: 3,
      delayed: 1,
      inFlight: 2,
      deadLettered: 1,
      // The first three were published before it, but none of them is ready.
      oldestReadyAt: at(-10 * MINUTE + 3).toISOString(),
    });
  });

  it('a subscription with nothing yet: zeros, no oldest, and 60 empty minutes', async () => {
    const { scope, sub } = await subscription();
    const activity = await subscriptionActivity(scope, sub.id, NOW);
    expect(activity.backlog).toEqual({ ready: 0, delayed: 0, inFlight: 0, deadLettered: 0, oldestReadyAt: null });
    expect(activity.minutes).toHaveLength(60);
    expect(activity.minutes.every((m) => m.delivered + m.failed + m.deadLettered + m.expired === 0)).toBe(true);
    await expect(subscriptionActivity({ ...scope, projectId: randomUUID() }, sub.id, NOW)).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('minutes: exactly the last 60, minute-aligned, oldest first, the current one last, rows where written', async () => {
    const { scope, sub } = await subscription();
    const current = new Date('2030-06-01T12:34:00.000Z');
    const db = await getDb();
    await db.insert(t.subscriptionMinutes).values([
      { subscriptionId: sub.id, minute: current, delivered: 7, failed: 1 },
      { subscriptionId: sub.id, minute: new Date(current.getTime() - 59 * MINUTE), deadLettered: 2, expired: 3 },
      // An hour ago: outside the window.
      { subscriptionId: sub.id, minute: new Date(current.getTime() - 60 * MINUTE), delivered: 99 },
    ]);
    const { minutes } = await subscriptionActivity(scope, sub.id, NOW);
    expect(minutes).toHaveLength(60);
    expect(minutes[0]).toEqual({
      at: '2030-06-01T11:35:00.000Z',
      delivered: 0,
      failed: 0,
      deadLettered: 2,
      expired: 3,
    });
    expect(minutes[59]).toEqual({
      at: '2030-06-01T12:34:00.000Z',
      delivered: 7,
      failed: 1,
      deadLettered: 0,
      expired: 0,
    });
    for (let i = 1; i < 60; i++) expect(Date.parse(minutes[i].at) - Date.parse(minutes[i - 1].at)).toBe(MINUTE);
    expect(minutes.slice(1, 59).every((m) => m.delivered + m.failed + m.deadLettered + m.expired === 0)).toBe(true);
  });

  it('deliveries: the last 24 hours, newest first, paged; an unfinished one is in_flight, abandoned past its lease', async () => {
    const { scope, sub } = await subscription();
    const db = await getDb();
    const row = (startedAt: Date, extra: Partial<typeof t.subscriptionDeliveries.$inferInsert> = {}) => ({
      organizationId: sub.organizationId,
      subscriptionId: sub.id,
      startedAt,
      leaseUntil: new Date(startedAt.getTime() + 30_000),
      messages: 3,
      ...extra,
    });
    const [old, failed, , running, cutOff] = await db
      .insert(t.subscriptionDeliveries)
      .values([
        row(at(-DELIVERIES_KEPT_MS - 1), { outcome: 'delivered', finishedAt: NOW }),
        row(at(-2 * MINUTE), {
          outcome: 'failed',
          status: 503,
          durationMs: 120,
          errorClass: 'http',
          errorMessage: 'Target answered 503',
          finishedAt: at(-2 * MINUTE + 120),
        }),
        row(at(-MINUTE), { outcome: 'delivered', status: 200, durationMs: 40, finishedAt: at(-MINUTE + 40) }),
        row(at(-1000)),
        // Its record never came (a session ended mid-record): its lease ran out 2.5 minutes ago.
        row(at(-3 * MINUTE), { leaseUntil: at(-3 * MINUTE + 31_000) }),
      ])
      .returning();
    const first = await listSubscriptionDeliveries(scope, sub.id, { limit: 2 }, NOW);
    expect(first.items.map((d) => d.outcome)).toEqual(['in_flight', 'delivered']);
    expect(first.items[0]).toEqual({
      id: running.id,
      startedAt: at(-1000).toISOString(),
      messages: 3,
      outcome: 'in_flight',
      status: null,
      durationMs: null,
      errorClass: null,
      errorMessage: null,
    });
    const second = await listSubscriptionDeliveries(scope, sub.id, { limit: 2, cursor: first.nextCursor! }, NOW);
    expect(second.items).toEqual([
      {
        id: failed.id,
        startedAt: at(-2 * MINUTE).toISOString(),
        messages: 3,
        outcome: 'failed',
        status: 503,
        durationMs: 120,
        errorClass: 'http',
        errorMessage: 'Target answered 503',
      },
      {
        id: cutOff.id,
        startedAt: at(-3 * MINUTE).toISOString(),
        messages: 3,
        outcome: 'abandoned',
        status: null,
        durationMs: null,
        errorClass: null,
        errorMessage: null,
      },
    ]);
    expect(second.nextCursor).toBeNull();
    expect([...first.items, ...second.items].map((d) => d.id)).not.toContain(old.id);
  });

  it('housekeeping purges deliveries older than a day and minutes older than two hours, and nothing newer', async () => {
    const { sub } = await subscription();
    const db = await getDb();
    const now = new Date();
    const delivery = (age: number) => ({
      organizationId: sub.organizationId,
      subscriptionId: sub.id,
      startedAt: new Date(now.getTime() - age),
      leaseUntil: now,
      messages: 1,
    });
    await db
      .insert(t.subscriptionDeliveries)
      .values([delivery(DELIVERIES_KEPT_MS + MINUTE), delivery(DELIVERIES_KEPT_MS + 2 * MINUTE), delivery(MINUTE)]);
    const minute = (age: number) => ({
      subscriptionId: sub.id,
      minute: new Date(Math.floor((now.getTime() - age) / MINUTE) * MINUTE),
    });
    await db.insert(t.subscriptionMinutes).values([minute(MINUTES_KEPT_MS + 2 * MINUTE), minute(MINUTE)]);
    // Other tests' rows on this database are recent: only these three are old enough.
    expect(await purgeSubscriptionRecords(now)).toEqual({ deliveries: 2, minutes: 1 });
    const kept = (table: typeof t.subscriptionDeliveries | typeof t.subscriptionMinutes) =>
      db.select().from(table).where(eq(table.subscriptionId, sub.id));
    expect(await kept(t.subscriptionDeliveries)).toHaveLength(1);
    expect(await kept(t.subscriptionMinutes)).toHaveLength(1);
    expect(await purgeSubscriptionRecords(now)).toEqual({ deliveries: 0, minutes: 0 });
  });
});
