import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { getDb, type Tx } from '../db/client';
import { queryRows } from '../db/statement';
import type { DeliveryChannel, Outgoing } from './engine';
import type { SendResult } from './send';

/**
 * Where a channel of one row per delivery keeps its deliveries (webhook events, emails), named by drizzle's columns.
 * Its table stays the channel's (its data and history are the channel's), but only this module claims, leases,
 * records, retries, gives up and hands back those rows.
 */
export type DeliveryRows = {
  table: PgTable;
  id: PgColumn;
  /** `pending` while due or in flight; then the channel's `delivered` or `failed` value. */
  state: PgColumn;
  /** The attempt a claim leases: raised by the claim, lowered by a hand-back, matched by the record. */
  attempts: PgColumn;
  /** Until when a claim holds the row; null when no instance holds it. */
  lease: PgColumn;
  /** When a pending row falls due; null: the lease's column holds that time too (a retry's wait is a lease). */
  due: PgColumn | null;
  order: PgColumn;
  /** The values of `state` once delivered, and once given up. */
  delivered: string;
  failed: string;
  /** What else a row must satisfy to be claimed (an endpoint still enabled), as a condition on the table. */
  ready?: SQL;
  /**
   * The claim's answer: a select from `claimed c` (the leased rows, `c.*`) and what joins them, naming the row's id
   * `id` and its attempt number `attempt`.
   */
  select: SQL;
};

/** What one attempt's record did, for the channel's own log, its exhaustion and its metrics. */
export type RowOutcome = {
  result: SendResult;
  at: Date;
  delivered: boolean;
  /** How long until the next try, from the record on the database's clock; null: none. */
  retryInMs: number | null;
  /** When the next try falls due, as the record wrote it; null: none. */
  nextAttemptAt: Date | null;
  /** Given up because every try the channel allows failed (not a refusal for good): what exhaustion does, runs. */
  exhausted: boolean;
};

export type RowChannel<C extends { id: string; attempt: number }> = {
  name: string;
  rows: DeliveryRows;
  /** How long a claim holds a row: well past the send's timeout, so only a crashed sender loses it. */
  leaseSeconds: number;
  /** A claimed row as the channel sends it. May throw (a secret this instance cannot open): the claim is undone. */
  fromRow(row: Record<string, unknown>, now: Date): C;
  /** Told what one claim leased (a queue's age). */
  claimed?(claimed: C[]): void;
  outgoing(claimed: C, at: Date): Outgoing;
  /** Whether an answer delivered it. */
  delivered(result: SendResult): boolean;
  /**
   * After a failed attempt: the wait before the next, or null for none. A null for an answer `retryable` says could
   * succeed later means every try was used: the delivery is exhausted.
   */
  retryIn(claimed: C, result: SendResult): number | null;
  retryable(result: SendResult): boolean;
  /** In the record's transaction, once the row moved: the channel's delivery log, and what exhaustion does. */
  recorded?(tx: Tx, claimed: C, outcome: RowOutcome): Promise<void>;
  /** Once the record has committed, for each attempt recorded (never for one whose lease was gone): metrics, wakes. */
  committed?(claimed: C, outcome: RowOutcome): void;
};

const column = (c: PgColumn) => sql.identifier(c.name);

/**
 * Leases up to `limit` due rows for this instance, in one statement: rows other instances hold are skipped
 * (`for update skip locked`), and the lease plus the attempt number written here make each attempt one instance's
 * alone.
 */
async function claimRows<R>(rows: DeliveryRows, limit: number, leaseSeconds: number): Promise<R[]> {
  const { table, id, state, attempts, lease, due, order } = rows;
  const db = await getDb();
  return queryRows<R>(
    db,
    sql`
    with due as (
      select ${id} from ${table}
      where ${state} = 'pending' and (${lease} is null or ${lease} < now())
        ${due ? sql`and ${due} <= now()` : sql``} ${rows.ready ? sql`and ${rows.ready}` : sql``}
      order by ${order}
      limit ${limit}
      for update skip locked
    ), claimed as (
      update ${table} set ${column(attempts)} = ${attempts} + 1,
        ${column(lease)} = now() + make_interval(secs => ${leaseSeconds})
      from due where ${id} = due.${column(id)}
      returning ${table}.*
    )
    ${rows.select}`,
  );
}

/**
 * Undoes a claim not yet recorded: the row is due again for any instance at once, under the same attempt number. A
 * send of it still under way here records nothing afterwards (its attempt number no longer matches).
 */
async function releaseRow(rows: DeliveryRows, rowId: string, attempt: number): Promise<void> {
  const db = await getDb();
  await db.execute(sql`
    update ${rows.table} set ${column(rows.attempts)} = ${rows.attempts} - 1, ${column(rows.lease)} = null
    where ${rows.id} = ${rowId}::uuid and ${rows.attempts} = ${attempt} and ${rows.lease} is not null
      and ${rows.state} = 'pending'`);
}

/**
 * Moves a row on after one attempt, in the caller's transaction, while this instance still holds the attempt it
 * claimed: a lease that ran out and was claimed again moves nothing, nor does a record after a hand-back (the attempt
 * number no longer matches), nor a second record of an attempt whose lease it cleared. (Where the lease holds the
 * retry's wait, a second record of the same result writes the same state again, with a later due time.) Returns when
 * the next try falls due (null: none), or undefined when nothing moved.
 */
async function moveRow(
  tx: Tx,
  rows: DeliveryRows,
  rowId: string,
  attempt: number,
  next: { state: string; retryInMs: number | null },
): Promise<{ nextAttemptAt: Date | null } | undefined> {
  const dueAt = next.retryInMs === null ? sql`null` : sql`now() + make_interval(secs => ${next.retryInMs / 1000})`;
  const moved = await queryRows<{ next_attempt_at: Date | string | null }>(
    tx,
    sql`
    update ${rows.table} set ${column(rows.state)} = ${next.state},
      ${rows.due ? sql`${column(rows.due)} = ${dueAt}, ${column(rows.lease)} = null` : sql`${column(rows.lease)} = ${dueAt}`}
    where ${rows.id} = ${rowId}::uuid and ${rows.attempts} = ${attempt} and ${rows.lease} is not null
    returning ${rows.due ?? rows.lease} as next_attempt_at`,
  );
  if (moved.length === 0) return undefined;
  const at = moved[0].next_attempt_at;
  return { nextAttemptAt: next.retryInMs === null || at === null ? null : new Date(at) };
}

/**
 * A channel of one row per delivery as a channel of the delivery engine: the claim, the hand-back, the retry's due
 * time (on the database's clock) and the give-up are this module's; the channel supplies what to send, how to read
 * the answer, its retry rule, its log and what exhaustion does.
 */
export function rowDeliveryChannel<C extends { id: string; attempt: number }>(
  channel: RowChannel<C>,
): DeliveryChannel<C> {
  const { rows } = channel;
  return {
    name: channel.name,
    async claim(limit) {
      const now = new Date();
      const leased = await claimRows<Record<string, unknown>>(rows, limit, channel.leaseSeconds);
      const claimed: C[] = [];
      for (const row of leased) {
        try {
          claimed.push(channel.fromRow(row, now));
        } catch (err) {
          // An instance that cannot prepare a row (its ENCRYPTION_KEY differs) must not strand it for a whole lease,
          // nor burn an attempt number it never sent: the claim is undone at once, for other instances.
          const rowId = String(row.id);
          console.error(`${channel.name} delivery ${rowId}: cannot be prepared here; left to other instances.`, err);
          await releaseRow(rows, rowId, Number(row.attempt));
        }
      }
      channel.claimed?.(claimed);
      return claimed;
    },
    key: (claimed) => claimed.id,
    outgoing: (claimed, at) => channel.outgoing(claimed, at),
    async record(claimed, result, at) {
      const delivered = channel.delivered(result);
      const retryInMs = delivered ? null : channel.retryIn(claimed, result);
      const exhausted = !delivered && retryInMs === null && channel.retryable(result) && result.notSent !== true;
      const state = delivered ? rows.delivered : retryInMs !== null ? 'pending' : rows.failed;
      const db = await getDb();
      const outcome = await db.transaction(async (tx) => {
        const moved = await moveRow(tx, rows, claimed.id, claimed.attempt, { state, retryInMs });
        if (!moved) return null;
        const outcome: RowOutcome = { result, at, delivered, retryInMs, nextAttemptAt: moved.nextAttemptAt, exhausted };
        await channel.recorded?.(tx, claimed, outcome);
        return outcome;
      });
      if (outcome) channel.committed?.(claimed, outcome);
    },
    release: (claimed) => releaseRow(rows, claimed.id, claimed.attempt),
  };
}
