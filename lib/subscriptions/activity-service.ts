import { and, desc, eq, gt, gte, lt, sql } from 'drizzle-orm';
import { getDb } from '../db/client';
import { deleteInBatches } from '../db/batched-delete';
import * as t from '../db/schema';
import { afterCursor, toPage, type Page, type PageQuery } from '../http/pagination';
import type { SubscriptionActivity, SubscriptionDelivery } from './activity-schema';
import { subscriptionRef } from './dead-letter-service';
import type { SubscriptionScope } from './service';
import { queryRows } from '../db/statement';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** How long the deliveries list and the per-minute figures are kept. */
export const DELIVERIES_KEPT_MS = 24 * HOUR;
export const MINUTES_KEPT_MS = 2 * HOUR;

const num = (value: unknown) => Number(value ?? 0);

/**
 * The backlog now and the last 60 minutes. The totals come from the counters the triggers keep; only the messages
 * due later (in flight, or waiting for a retry or a publish delay) are counted row by row, over the ready index, so
 * the cost does not grow with a backlog that is ready. One statement, so the figures come from one snapshot.
 */
export async function subscriptionActivity(
  scope: SubscriptionScope,
  id: string,
  now = new Date(),
): Promise<SubscriptionActivity> {
  const db = await getDb();
  await subscriptionRef(db, scope, id);
  const at = now.toISOString();
  const [row] = await queryRows<Record<string, unknown>>(
    db,
    sql`
    select
      (select pending from subscription_backlogs where subscription_id = ${id}::uuid) as pending,
      (select dead from subscription_backlogs where subscription_id = ${id}::uuid) as dead,
      later.in_flight, later.delayed,
      (select published_at from subscription_messages
        where subscription_id = ${id}::uuid and state = 'pending' and available_at <= ${at}::timestamptz
        order by published_at limit 1) as oldest_ready_at
    from (
      select count(*) filter (where delivery_id is not null) as in_flight,
        count(*) filter (where delivery_id is null) as delayed
      from subscription_messages
      where subscription_id = ${id}::uuid and state = 'pending' and available_at > ${at}::timestamptz
    ) later`,
  );
  const inFlight = num(row.in_flight);
  const delayed = num(row.delayed);
  const oldest = row.oldest_ready_at as Date | string | null;
  return {
    backlog: {
      ready: num(row.pending) - inFlight - delayed,
      delayed,
      inFlight,
      deadLettered: num(row.dead),
      oldestReadyAt: oldest ? new Date(oldest).toISOString() : null,
    },
    minutes: await lastHour(id, now),
  };
}

/** The 60 minutes up to and including the current one, oldest first, zeros where no row was written. */
async function lastHour(id: string, now: Date): Promise<SubscriptionActivity['minutes']> {
  const current = Math.floor(now.getTime() / MINUTE) * MINUTE;
  const first = new Date(current - 59 * MINUTE);
  const db = await getDb();
  const rows = await db
    .select()
    .from(t.subscriptionMinutes)
    .where(and(eq(t.subscriptionMinutes.subscriptionId, id), gte(t.subscriptionMinutes.minute, first)));
  const byMinute = new Map(rows.map((r) => [r.minute.getTime(), r]));
  return Array.from({ length: 60 }, (_, i) => {
    const minute = first.getTime() + i * MINUTE;
    const r = byMinute.get(minute);
    return {
      at: new Date(minute).toISOString(),
      delivered: r?.delivered ?? 0,
      failed: r?.failed ?? 0,
      deadLettered: r?.deadLettered ?? 0,
      expired: r?.expired ?? 0,
    };
  });
}

const d = t.subscriptionDeliveries;

/** The last 24 hours of deliveries, newest first, keyset-paged over `subscription_deliveries_list_idx`. */
export async function listSubscriptionDeliveries(
  scope: SubscriptionScope,
  id: string,
  page: PageQuery,
  now = new Date(),
): Promise<Page<SubscriptionDelivery>> {
  const db = await getDb();
  await subscriptionRef(db, scope, id);
  const rows = await db
    .select()
    .from(d)
    .where(
      and(
        eq(d.subscriptionId, id),
        gt(d.startedAt, new Date(now.getTime() - DELIVERIES_KEPT_MS)),
        afterCursor(page.cursor, d.startedAt, d.id, 'desc'),
      ),
    )
    .orderBy(desc(d.startedAt), desc(d.id))
    .limit(page.limit + 1);
  return toPage(
    rows,
    page.limit,
    (r) => r.startedAt,
    (r) => ({
      id: r.id,
      startedAt: r.startedAt.toISOString(),
      messages: r.messages,
      // No outcome yet: its request is still being sent, or, past its lease, never will be recorded (its instance
      // stopped or lost the database first; its messages went out again in a later delivery).
      outcome: r.outcome ?? (r.leaseUntil > now ? 'in_flight' : 'abandoned'),
      status: r.status,
      durationMs: r.durationMs,
      errorClass: r.errorClass,
      errorMessage: r.errorMessage,
    }),
  );
}

/** Housekeeping: deliveries older than a day and minutes older than two hours, in batches. */
export async function purgeSubscriptionRecords(now = new Date()): Promise<{ deliveries: number; minutes: number }> {
  const deliveries = await deleteInBatches(d, lt(d.startedAt, new Date(now.getTime() - DELIVERIES_KEPT_MS)));
  const minutes = await deleteInBatches(
    t.subscriptionMinutes,
    lt(t.subscriptionMinutes.minute, new Date(now.getTime() - MINUTES_KEPT_MS)),
  );
  return { deliveries, minutes };
}
