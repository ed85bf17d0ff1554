import { sql } from 'drizzle-orm';
import { openSecret } from '../crypto/secret-box';
import { getDb, type DbOrTx, type Tx } from '../db/client';
import { hasSqlState } from '../db/errors';
import type { DeliveryError } from '../db/schema';
import { DELIVERABLE_TEXT, kept, LOCKED_COLUMNS_TEXT, RETENTION_START } from './delivery-rules';
import { subscriptionSecretContext } from './secret';
import { queryRows } from '../db/statement';

/** How long past its timeout a delivery's lease holds: only a dead or stalled instance lets it run out. */
export const LEASE_MARGIN_SECONDS = 30;
/** How many subscriptions one claim serves at most. */
const SUBSCRIPTIONS_PER_CLAIM = 20;

export type RetryPolicy = { maxAttempts: number; minBackoffSeconds: number; maxBackoffSeconds: number };

export type ClaimedBatch = {
  deliveryId: string;
  subscriptionId: string;
  slug: string;
  organizationId: string;
  projectId: string;
  queueId: string;
  url: string;
  timeoutSeconds: number;
  secrets: string[];
  retryPolicy: RetryPolicy;
  /** Each message's id and failed attempts so far, in the order sent. */
  messages: { id: string; attempts: number }[];
  /** The request body, built from the stored JSON text without parsing it. */
  body: string;
};

type LockedRow = {
  id: string;
  slug: string;
  organization_id: string;
  project_id: string;
  queue_id: string;
  url: string;
  timeout_seconds: number;
  secret_box: string;
  previous_secret_box: string | null;
  previous_secret_until: Date | string | null;
  retry_max_attempts: number;
  retry_min_backoff_seconds: number;
  retry_max_backoff_seconds: number;
};

type LeasedRow = {
  delivery_id: string;
  subscription_id: string;
  message_id: string;
  attempts: number;
  published_at: string;
  body: string;
  attributes: string;
};

/**
 * Active https subscriptions with ready messages and (by this snapshot) room for another delivery, those waited on
 * longest first: found by a skip scan of the ready index, so subscriptions without messages cost nothing. Whether
 * one has a ready message is its first in the ready index's order, looked up for it alone: written as `exists`,
 * the planner may turn the test into one join over every pending message (a hash of the whole backlog, read at
 * every idle instance's poll: 12,000 rows a probe in a drain of 40,000, docs/benchmarks.md).
 */
const candidates = (limit: number) => sql`
  with recursive waiting(id) as (
    (select subscription_id from subscription_messages where state = 'pending' order by subscription_id limit 1)
    union all
    select (select m.subscription_id from subscription_messages m
            where m.state = 'pending' and m.subscription_id > w.id order by m.subscription_id limit 1)
    from waiting w where w.id is not null
  )
  select ${LOCKED_COLUMNS}
  from subscriptions s join queues q on q.id = s.queue_id
  where s.id in (select id from waiting where id is not null)
    and ${DELIVERABLE}
    and (select m.available_at from subscription_messages m
         where m.subscription_id = s.id and m.state = 'pending' and m.available_at <= now()
           and ${kept(RETENTION_START)}
         order by m.available_at limit 1) is not null
    -- A hint only (this snapshot may be older than the lock): the exact count is the claim's second statement's.
    and (select count(*) from subscription_deliveries d
         where d.subscription_id = s.id and d.finished_at is null and d.lease_until > now()) < s.max_concurrency
  order by s.claimed_at nulls first
  limit ${limit}`;

/** A batch's body stays within this (nginx's default limit): fewer messages go rather than more bytes. */
export const MAX_BATCH_BYTES = 1024 * 1024;
/** What a batch's body adds to its messages' bodies and attributes: its own fields, and each message's (at most). */
const BATCH_ENVELOPE_BYTES = 256;
const MESSAGE_ENVELOPE_BYTES = 140;

/**
 * Claims batches for this instance, in one transaction of two statements. The first locks the candidates
 * (`for update skip locked`: another instance claiming one skips it). The second, run after the locks are held
 * (so its snapshot sees every lease committed before them), counts each one's live leases and takes at most
 * `maxConcurrency` minus that many batches of at most `batchSize` ready messages, each batch one delivery row
 * leased for its timeout plus a margin. That is the whole concurrency rule: leases are only made under the
 * subscription's lock, from its current `maxConcurrency`, so the cap holds across instances and a change applies
 * at the next claim.
 */
/** Whether this process's last claim leased anything. */
let busy = false;

export async function claimBatches(limit: number): Promise<ClaimedBatch[]> {
  const db = await getDb();
  // An idle instance asks once, outside a transaction, whether any subscription has work; most passes stop here.
  // While claims find work, the next one goes straight to its transaction.
  if (!busy && (await queryRows(db, sql`select 1 from (${candidates(1)}) c`)).length === 0) return [];
  const { locked, leased } = await db.transaction(async (tx) => {
    const locked = await queryRows<LockedRow>(
      tx,
      sql`${candidates(Math.min(limit, SUBSCRIPTIONS_PER_CLAIM))} for no key update of s skip locked`,
    );
    if (locked.length === 0) return { locked, leased: [] as LeasedRow[] };
    const leased = await leaseBatches(tx, locked, limit);
    return { locked, leased };
  });
  busy = leased.length > 0;
  const { batches, unsignable } = batchesOf(locked, leased);
  // An instance whose ENCRYPTION_KEY differs must not strand what it claimed for a whole lease.
  if (unsignable.length > 0) await releaseDeliveries(db, unsignable);
  return batches;
}

/**
 * Leases batches of the locked subscriptions, in one statement: at most `claim` batches in all, each subscription's
 * first, then the seconds, and so on, and every subscription looked at goes to the back of the claims' line. A
 * subscription gets at most `maxConcurrency` minus its live leases, counted by this statement, which runs after the
 * locks are held (so its snapshot sees every lease committed before them). A refill leases through the same
 * function, inside migration 0027's record (`recordBatches`).
 */
async function leaseBatches(tx: Tx, locked: LockedRow[], claim: number): Promise<LeasedRow[]> {
  // Migration 0026 holds the statement, as a function whose plan each connection keeps.
  return queryRows<LeasedRow>(
    tx,
    sql`select * from subscription_lease_v1(${uuidArray(locked.map((s) => s.id))}::uuid[], ${claim}::int,
          null::uuid[], ${LEASE_MARGIN_SECONDS}::int, ${MAX_BATCH_BYTES - BATCH_ENVELOPE_BYTES}::int,
          ${MESSAGE_ENVELOPE_BYTES}::int)`,
  );
}

/** Ids as one PostgreSQL array parameter (they are uuids read from the database). */
const uuidArray = (ids: string[]) => `{${ids.join(',')}}`;

const LOCKED_COLUMNS = sql.raw(LOCKED_COLUMNS_TEXT);
const DELIVERABLE = sql.raw(DELIVERABLE_TEXT);

function batchesOf(locked: LockedRow[], leased: LeasedRow[]) {
  const subs = new Map(locked.map((s) => [s.id, s]));
  const secrets = new Map<string, string[] | null>();
  const unsignable: string[] = [];
  const byDelivery = new Map<string, LeasedRow[]>();
  for (const row of leased) byDelivery.set(row.delivery_id, [...(byDelivery.get(row.delivery_id) ?? []), row]);
  const batches: ClaimedBatch[] = [];
  for (const [deliveryId, rows] of byDelivery) {
    const s = subs.get(rows[0].subscription_id)!;
    if (!secrets.has(s.id)) secrets.set(s.id, signingSecrets(s));
    const signWith = secrets.get(s.id);
    if (!signWith) {
      unsignable.push(deliveryId);
      continue;
    }
    const messages = rows.map(
      (r) =>
        `{"id":${JSON.stringify(r.message_id)},"body":${r.body},"attributes":${r.attributes},` +
        `"publishedAt":"${r.published_at}","attempt":${r.attempts + 1}}`,
    );
    batches.push({
      deliveryId,
      subscriptionId: s.id,
      slug: s.slug,
      organizationId: s.organization_id,
      projectId: s.project_id,
      queueId: s.queue_id,
      url: s.url,
      timeoutSeconds: s.timeout_seconds,
      secrets: signWith,
      retryPolicy: {
        maxAttempts: s.retry_max_attempts,
        minBackoffSeconds: s.retry_min_backoff_seconds,
        maxBackoffSeconds: s.retry_max_backoff_seconds,
      },
      messages: rows.map((r) => ({ id: r.message_id, attempts: r.attempts })),
      body:
        `{"subscriptionId":"${s.id}","queueId":"${s.queue_id}","deliveryId":"${deliveryId}",` +
        `"messages":[${messages.join(',')}]}`,
    });
  }
  return { batches, unsignable };
}

/** Its current secret, and the previous one during the day after a rotation; null when this instance cannot open it. */
function signingSecrets(s: LockedRow): string[] | null {
  try {
    const secrets = [openSecret(s.secret_box, subscriptionSecretContext(s.id))];
    const until = s.previous_secret_until ? new Date(s.previous_secret_until) : null;
    if (s.previous_secret_box && until && until > new Date())
      secrets.push(openSecret(s.previous_secret_box, subscriptionSecretContext(s.id)));
    return secrets;
  } catch (err) {
    console.error(`Subscription ${s.id}: cannot open its signing secret here; left to other instances.`, err);
    return null;
  }
}

/** What one attempt came to, as the record statement takes it. */
export type BatchOutcome = {
  /** delivered: every message; partial: all but `failed`; failed: every message; paused: a 410 (nothing counted). */
  outcome: 'delivered' | 'partial' | 'failed' | 'paused';
  status: number | null;
  durationMs: number;
  error: DeliveryError | null;
  /** The failed messages with how long each waits (its backoff, from the record on the database's clock). */
  failed: { id: string; retryInMs: number }[];
};

export type RecordedCounts = {
  recorded: boolean;
  delivered: number;
  failed: number;
  deadLettered: number;
  /** The subscription's health turned with this record (to `failing` or back to `healthy`). */
  turned: 'failing' | 'healthy' | null;
  /** The minute (on the database's clock) whose activity counts this record adds to, once committed. */
  minute: string;
};

/** What a record did: each attempt's counts, in the order given, and the batches it leased in place of some. */
export type Recorded = { counts: RecordedCounts[]; next: ClaimedBatch[] };

type FinishRow = {
  kind: 'recorded' | 'subscription' | 'message';
  detail: unknown;
} & LeasedRow;

type RecordDetail = {
  delivery_id: string;
  recorded: boolean;
  delivered: number;
  failed: number;
  dead: number;
  health: string | null;
  turned: boolean | null;
  minute: string;
};

/**
 * Records attempts, each while its delivery is still unrecorded (a second record, or one after a release, changes
 * nothing), and leases the next batch of each subscription in place of the deliveries of `refill` it recorded, in
 * one statement (migration 0027): a target's cycle is its POST and this one round trip.
 *
 * - Delivered messages leave; failed ones count an attempt and wait their backoff, or are dead-lettered at
 *   `maxAttempts` (the subscription's current policy); a 410 gives them back uncounted (its pause is the caller's,
 *   in its transaction).
 * - Each subscription's status moves as if its attempts were recorded one after the other in the order given:
 *   `lastSuccessAt`, `lastError`, the failures in a row and `health`, whose turn is known exactly once because the
 *   turning transaction marks it (a turn and its return within one statement cancel out: nobody saw either). The
 *   failures in a row and the health come from the subscription's row as locked by the update, never from the
 *   statement's snapshot, which a record committed meanwhile by another instance would have made stale.
 * - A refill takes the subscription's lock `for share` (pause, resume and PATCH wait for it, and are seen if they
 *   came first), skipping one another transaction holds (left to the next claim), and leases while it is active and
 *   under its cap. A delivery's end and its successor's start commit together, so the number of live leases never
 *   grows here; only a claim adds to it. A group with a 410 refills nothing: its pause comes after the statement.
 *
 * `alone`: `db` is no transaction, and the statement commits on its own, unless a subscription's health turned or a
 * 410 is among them: then nothing is written and the answer is null, for the caller to record again in a
 * transaction that commits what those announce (and the pause) with them. The minute's counts are the caller's to
 * add once committed (`countMinute`).
 */
export async function recordBatches(
  db: DbOrTx,
  attempts: { batch: ClaimedBatch; outcome: BatchOutcome }[],
  { refill = [], alone = false }: { refill?: string[]; alone?: boolean } = {},
): Promise<Recorded | null> {
  const pausing = attempts.some(({ outcome }) => outcome.outcome === 'paused');
  if (alone && pausing) return null;
  const firsts = new Set<string>();
  const once = attempts.map(({ batch }) => !firsts.has(batch.deliveryId) && !!firsts.add(batch.deliveryId));
  const sent = attempts.flatMap(({ batch, outcome: o }, ord) =>
    once[ord]
      ? [
          {
            ord,
            delivery_id: batch.deliveryId,
            outcome: o.outcome,
            status: o.status,
            duration_ms: o.durationMs,
            error: o.error,
          },
        ]
      : [],
  );
  const failed = attempts.flatMap(({ batch, outcome: o }, ord) =>
    once[ord] ? o.failed.map((f) => ({ delivery_id: batch.deliveryId, id: f.id, retry_in_ms: f.retryInMs })) : [],
  );
  let rows: FinishRow[];
  try {
    rows = await queryRows<FinishRow>(
      db,
      sql`select * from subscription_finish_v1(${JSON.stringify(sent)}::jsonb, ${JSON.stringify(failed)}::jsonb,
            ${uuidArray(pausing ? [] : refill)}::uuid[], ${alone}::boolean, ${LEASE_MARGIN_SECONDS}::int,
            ${MAX_BATCH_BYTES - BATCH_ENVELOPE_BYTES}::int, ${MESSAGE_ENVELOPE_BYTES}::int)`,
    );
  } catch (err) {
    if (alone && hasSqlState(err, HEALTH_TURNED)) return null;
    throw err;
  }
  const byDelivery = new Map<string, RecordDetail>();
  const locked: LockedRow[] = [];
  const leased: LeasedRow[] = [];
  for (const row of rows) {
    if (row.kind === 'recorded') byDelivery.set(row.delivery_id, row.detail as RecordDetail);
    else if (row.kind === 'subscription') locked.push(row.detail as LockedRow);
    else leased.push(row);
  }
  if (leased.length > 0) busy = true;
  const { batches: next, unsignable } = batchesOf(locked, leased);
  // Cannot happen after a record signed by this instance, unless its secret changed meanwhile: given back at once.
  if (unsignable.length > 0) await releaseDeliveries(db, unsignable);
  // A subscription's turn is announced once, with the last of its attempts here.
  const lastOf = new Map<string, number>();
  attempts.forEach(({ batch }, i) => {
    if (once[i] && byDelivery.get(batch.deliveryId)?.recorded) lastOf.set(batch.subscriptionId, i);
  });
  const counts: RecordedCounts[] = [];
  for (const [i, { batch }] of attempts.entries()) {
    const row = once[i] ? byDelivery.get(batch.deliveryId) : undefined;
    if (!row?.recorded) {
      counts.push({
        recorded: false,
        delivered: 0,
        failed: 0,
        deadLettered: 0,
        turned: null,
        minute: row?.minute ?? '',
      });
      continue;
    }
    counts.push({
      recorded: true,
      delivered: row.delivered,
      failed: row.failed,
      deadLettered: row.dead,
      turned: row.turned && lastOf.get(batch.subscriptionId) === i ? (row.health as 'failing' | 'healthy') : null,
      minute: row.minute,
    });
  }
  return { counts, next };
}

/** What migration 0027's record raises, alone, when a subscription's health turned. */
const HEALTH_TURNED = 'SVH01';

/** Gives back a delivery not recorded (shutdown, or a secret this instance cannot open): no attempt counted. */
export async function releaseBatch(deliveryId: string): Promise<void> {
  await releaseDeliveries(await getDb(), [deliveryId]);
}

async function releaseDeliveries(db: DbOrTx, deliveryIds: string[]): Promise<void> {
  await db.execute(sql`
    with d as (
      update subscription_deliveries set finished_at = now(), outcome = 'released'
      where id = any(${uuidArray(deliveryIds)}::uuid[]) and finished_at is null
      returning id, subscription_id
    )
    update subscription_messages m set delivery_id = null, available_at = now()
    from d where m.subscription_id = d.subscription_id and m.delivery_id = d.id`);
}
