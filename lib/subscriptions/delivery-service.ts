import { sql, type SQL } from 'drizzle-orm';
import { openSecret } from '../crypto/secret-box';
import { getDb, type Tx } from '../db/client';
import type { DeliveryError } from '../db/schema';
import { subscriptionSecretContext } from './secret';
import { pauseSubscription, type StateChangeSource } from './service';
import { SYSTEM_ACTOR } from '../audit/source';
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
 * longest first: found by a skip scan of the ready index, so subscriptions without messages cost nothing.
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
    and s.state = 'active' and s.target->>'kind' = 'https' and s.secret_box is not null
    and exists (select 1 from subscription_messages m
                where m.subscription_id = s.id and m.state = 'pending' and m.available_at <= now()
                  and ${kept(sql.raw('now() - make_interval(secs => q.retention_seconds)'))})
    -- A hint only (this snapshot may be older than the lock): the exact count is the claim's second statement's.
    and (select count(*) from subscription_deliveries d
         where d.subscription_id = s.id and d.finished_at is null and d.lease_until > now()) < s.max_concurrency
  order by s.claimed_at nulls first
  limit ${limit}`;

/**
 * Whether a pending message `m` is still within its queue's retention (`since`: the retention's start): a message
 * past it is never sent, whether or not the expiry pass has removed it yet. A redriven one counts from its redrive.
 */
const kept = (since: SQL) => sql`(m.published_at >= ${since} or m.dead_lettered_at >= ${since})`;

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
    const leased = await leaseBatches(tx, locked, { claim: limit });
    return { locked, leased };
  });
  busy = leased.length > 0;
  const { batches, unsignable } = batchesOf(locked, leased);
  // An instance whose ENCRYPTION_KEY differs must not strand what it claimed for a whole lease.
  for (const deliveryId of unsignable) await releaseBatch(deliveryId);
  return batches;
}

/**
 * Leases batches of the locked subscriptions, in one statement. `claim`: at most that many batches in all, each
 * subscription's first, then the seconds, and so on, and every subscription looked at goes to the back of the
 * claims' line. `refill`: for the deliveries just recorded in this transaction, at most one batch in place of
 * each whose lease was still live, of its subscription. Either way a subscription gets at most `maxConcurrency`
 * minus its live leases, counted by this statement, which runs after the locks are held (so its snapshot sees
 * every lease committed before them).
 */
async function leaseBatches(
  tx: Tx,
  locked: LockedRow[],
  take: { claim: number } | { refill: string[] },
): Promise<LeasedRow[]> {
  const ids = sql`array[${sql.join(
    locked.map((s) => sql`${s.id}::uuid`),
    sql`, `,
  )}]`;
  const limit = 'claim' in take ? take.claim : take.refill.length;
  // How many batches each subscription may start, before its cap. A refill replaces only a lease well short of its
  // end: one running out as this statement commits could have been left uncounted by a claim meanwhile.
  const wanted =
    'claim' in take
      ? sql`select id, ${limit}::int as n from unnest(${ids}) as id`
      : sql`select d.subscription_id as id, count(*)::int as n from subscription_deliveries d
            where d.id = any(array[${sql.join(
              take.refill.map((id) => sql`${id}::uuid`),
              sql`, `,
            )}]) and d.lease_until > now() + interval '5 seconds'
            group by d.subscription_id`;
  // A claim sends every subscription it looked at to the back of the line; a refill, which holds only a share lock
  // on them, writes nothing to their rows.
  const touched =
    'claim' in take ? sql`, touched as (update subscriptions set claimed_at = now() where id = any(${ids}))` : sql``;
  return queryRows<LeasedRow>(
    tx,
    sql`
        with wanted as (${wanted}), slots as (
          select s.id, s.organization_id, s.batch_size,
            least(s.max_concurrency - (select count(*) from subscription_deliveries d
                                       where d.subscription_id = s.id and d.finished_at is null and d.lease_until > now()),
                  w.n) as free,
            (s.target->>'timeoutSeconds')::int + ${LEASE_MARGIN_SECONDS} as lease_seconds,
            now() - make_interval(secs => q.retention_seconds) as kept_since
          from subscriptions s join queues q on q.id = s.queue_id join wanted w on w.id = s.id
          where s.id = any(${ids})
        ), picked as (
          select sl.id as subscription_id, m.message_id, m.available_at, m.bytes,
            (row_number() over (partition by sl.id order by m.available_at, m.message_id) - 1) / sl.batch_size as batch
          from slots sl cross join lateral (
            select m.message_id, m.available_at,
              octet_length(q.body::text) + octet_length(q.attributes::text) + ${MESSAGE_ENVELOPE_BYTES} as bytes
            from subscription_messages m join queue_messages q on q.id = m.message_id
            where m.subscription_id = sl.id and m.state = 'pending' and m.available_at <= now()
              and ${kept(sql.raw('sl.kept_since'))}
            order by m.available_at limit greatest(sl.free, 0) * sl.batch_size
            -- Two refills of one subscription may run at once: a message another is leasing is skipped, and one it
            -- leased since this statement began is seen leased (its new row is checked again) and skipped too.
            for no key update of m skip locked
          ) m
        ), fitted as (
          -- A batch's body stays within MAX_BATCH_BYTES: the messages past it stay ready for the next claim.
          select p.subscription_id, p.message_id, p.batch from (
            select p.*, sum(p.bytes) over (partition by p.subscription_id, p.batch
                                           order by p.available_at, p.message_id) as upto
            from picked p
          ) p where p.upto <= ${MAX_BATCH_BYTES - BATCH_ENVELOPE_BYTES}
        ), ranked as (
          -- At most the limit's batches in all: each subscription's first, then the seconds, and so on.
          select f.subscription_id, f.batch, count(*)::int as n,
            row_number() over (order by f.batch, array_position(${ids}, f.subscription_id)) as rank
          from fitted f group by f.subscription_id, f.batch
        ), batches as (
          select r.subscription_id, r.batch, r.n, gen_random_uuid() as delivery_id from ranked r where r.rank <= ${limit}
        ), deliveries as (
          insert into subscription_deliveries (id, organization_id, subscription_id, started_at, lease_until, messages)
          select b.delivery_id, sl.organization_id, b.subscription_id, now(),
            now() + make_interval(secs => sl.lease_seconds), b.n
          from batches b join slots sl on sl.id = b.subscription_id
        ), leased as (
          update subscription_messages m
          set delivery_id = b.delivery_id, available_at = now() + make_interval(secs => sl.lease_seconds)
          from fitted p join batches b using (subscription_id, batch) join slots sl on sl.id = p.subscription_id
          where m.subscription_id = p.subscription_id and m.message_id = p.message_id
          returning m.subscription_id, m.message_id, m.delivery_id, m.attempts, m.published_at
        )${touched}
        select l.delivery_id, l.subscription_id, l.message_id, l.attempts,
          to_char(l.published_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as published_at,
          q.body::text as body, q.attributes::text as attributes
        from leased l join queue_messages q on q.id = l.message_id
        order by l.delivery_id, l.published_at, l.message_id`,
  );
}

/** The columns of a subscription a batch is built from, for a claim's lock and a refill's. */
const LOCKED_COLUMNS = sql.raw(`s.id, s.slug, s.organization_id, s.project_id, s.queue_id, s.target->>'url' as url,
    (s.target->>'timeoutSeconds')::int as timeout_seconds, s.secret_box, s.previous_secret_box,
    s.previous_secret_until, s.retry_max_attempts, s.retry_min_backoff_seconds, s.retry_max_backoff_seconds`);

/**
 * In the transaction that recorded `recorded`, leases the next batch of each one's subscription in its place, while
 * the subscription is active and under its cap: the record's round trip also starts the next send, with no claim
 * between. A delivery's end and its successor's start commit together, so the number of live leases never grows
 * here; only a claim adds to it. The subscriptions are locked `for share` (pause, resume and PATCH wait for it, and
 * are seen if they came first), skipping any another transaction holds: those are left to the next claim.
 */
export async function refillBatches(tx: Tx, recorded: ClaimedBatch[]): Promise<ClaimedBatch[]> {
  if (recorded.length === 0) return [];
  const locked = await queryRows<LockedRow>(
    tx,
    sql`select ${LOCKED_COLUMNS} from subscriptions s
        where s.id = any(array[${sql.join(
          [...new Set(recorded.map((b) => b.subscriptionId))].map((id) => sql`${id}::uuid`),
          sql`, `,
        )}])
          and s.state = 'active' and s.target->>'kind' = 'https' and s.secret_box is not null
        order by s.id
        for share of s skip locked`,
  );
  if (locked.length === 0) return [];
  const leased = await leaseBatches(tx, locked, { refill: recorded.map((b) => b.deliveryId) });
  if (leased.length > 0) busy = true;
  const { batches, unsignable } = batchesOf(locked, leased);
  // Cannot happen after a record signed by this instance, unless its secret changed meanwhile: given back at once.
  if (unsignable.length > 0) await releaseDeliveries(tx, unsignable);
  return batches;
}

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
  /** A 410 paused it now. */
  paused: boolean;
  /** The minute (on the database's clock) whose activity counts this record adds to, once committed. */
  minute: string;
};

/**
 * A subscription's failures in a row and its health after the attempts of one record (`n`, a row of `runs`), from
 * its row as locked by the update (`s`): never from the statement's snapshot, which a record committed meanwhile by
 * another instance would have made stale.
 */
const IN_A_ROW = sql.raw(`n.fails + case when n.any_ok then 0 else s.consecutive_failures end`);
const NEXT_HEALTH = sql.raw(
  `case when n.fails > 0 and n.fails + case when n.any_ok then 0 else s.consecutive_failures end >= 3 then 'failing'
    when n.any_ok then 'healthy' else s.health end`,
);

/**
 * Records attempts in the caller's transaction, in one statement, each while its delivery is still unrecorded (a
 * second record, or one after a release, changes nothing): delivered messages leave; failed ones count an attempt
 * and wait their backoff, or are dead-lettered at `maxAttempts` (the subscription's current policy); a 410 gives
 * them back uncounted and pauses the subscription. Each subscription's status moves as if its attempts were
 * recorded one after the other in the order given: `lastSuccessAt`, `lastError`, the failures in a row and
 * `health`, whose turn is known exactly once because the turning transaction marks it (a turn and its return
 * within one statement cancel out: nobody saw either). The minute's counts are the caller's to add once committed
 * (`countMinute`). One statement for the
 * lot, so a busy instance's record costs one round trip however many attempts finished meanwhile.
 */
export async function recordBatches(
  tx: Tx,
  attempts: { batch: ClaimedBatch; outcome: BatchOutcome }[],
): Promise<RecordedCounts[]> {
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
  const rows = await queryRows<{
    delivery_id: string;
    recorded: boolean;
    delivered: number;
    failed: number;
    dead: number;
    health: string | null;
    turned: boolean | null;
    minute: string;
  }>(
    tx,
    sql`
      with o as (
        select * from jsonb_to_recordset(${JSON.stringify(sent)}::jsonb)
          as o(ord int, delivery_id uuid, outcome text, status int, duration_ms int, error jsonb)
      ), f as (
        select * from jsonb_to_recordset(${JSON.stringify(failed)}::jsonb) as f(delivery_id uuid, id uuid, retry_in_ms bigint)
      ), d as (
        update subscription_deliveries sd
        set finished_at = now(), outcome = o.outcome, status = o.status, duration_ms = o.duration_ms,
          error_class = o.error->>'class', error_message = o.error->>'message'
        from o where sd.id = o.delivery_id and sd.finished_at is null
        returning sd.id, sd.subscription_id, o.ord, o.outcome, o.error
      ), gone as (
        delete from subscription_messages m using d
        where d.outcome in ('delivered', 'partial') and m.subscription_id = d.subscription_id and m.delivery_id = d.id
          and not exists (select 1 from f where f.delivery_id = d.id and f.id = m.message_id)
        returning m.delivery_id
      ), retried as (
        update subscription_messages m
        set attempts = m.attempts + 1, delivery_id = null, last_error = d.error,
          state = case when m.attempts + 1 >= s.retry_max_attempts then 'dead' else 'pending' end,
          dead_lettered_at = case when m.attempts + 1 >= s.retry_max_attempts then now() else m.dead_lettered_at end,
          available_at = case when m.attempts + 1 >= s.retry_max_attempts then m.available_at
            else now() + make_interval(secs => f.retry_in_ms / 1000.0) end
        from d join subscriptions s on s.id = d.subscription_id join f on f.delivery_id = d.id
        where d.outcome in ('failed', 'partial') and m.subscription_id = d.subscription_id
          and m.delivery_id = d.id and m.message_id = f.id
        returning d.id as delivery_id, m.state
      ), held as (
        update subscription_messages m set delivery_id = null, available_at = now()
        from d
        where d.outcome = 'paused' and m.subscription_id = d.subscription_id and m.delivery_id = d.id
        returning 1
      ), runs as (
        -- Per subscription: whether any attempt succeeded, the failures after the last success, the last error.
        select d.subscription_id, bool_or(d.outcome in ('delivered', 'partial')) as any_ok,
          bool_and(d.outcome = 'delivered') as all_delivered,
          count(*) filter (where d.outcome = 'failed' and d.ord > coalesce(ok.last_ok, -1))::int as fails,
          (array_agg(d.error order by d.ord desc) filter (where d.error is not null))[1] as last_error
        from d left join lateral (
          select max(k.ord) as last_ok from d k
          where k.subscription_id = d.subscription_id and k.outcome in ('delivered', 'partial')
        ) ok on true
        group by d.subscription_id
      ), status as (
        update subscriptions s
        set last_success_at = case when n.any_ok then now() else s.last_success_at end,
          last_error = coalesce(n.last_error, s.last_error),
          consecutive_failures = ${IN_A_ROW},
          health = ${NEXT_HEALTH},
          health_turn_xid = case when s.health <> ${NEXT_HEALTH} then txid_current() else s.health_turn_xid end
        from runs n where s.id = n.subscription_id
          -- A success of a healthy subscription changes only lastSuccessAt: written once a second at most, so the
          -- records of a busy subscription do not queue on its row (nor make its claims skip it, locked).
          and not (n.all_delivered and s.health = 'healthy' and s.consecutive_failures = 0
                   and coalesce(s.last_success_at > now() - interval '1 second', false))
        returning s.id, s.health, s.health_turn_xid = txid_current() as turned
      ), counted as (
        select d.id, d.subscription_id, coalesce(g.n, 0) as delivered, coalesce(r.n, 0) as failed,
          coalesce(r.dead, 0) as dead
        from d
        left join (select delivery_id, count(*)::int as n from gone group by delivery_id) g on g.delivery_id = d.id
        left join (select delivery_id, count(*)::int as n, count(*) filter (where state = 'dead')::int as dead
                   from retried group by delivery_id) r on r.delivery_id = d.id
      )
      -- An attempt's record lost with the database's last moments only sends it again: no wait for the WAL flush.
      select o.delivery_id, c.id is not null as recorded, coalesce(c.delivered, 0) as delivered,
        coalesce(c.failed, 0) as failed, coalesce(c.dead, 0) as dead, st.health, st.turned,
        to_char(date_trunc('minute', now()) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as minute,
        set_config('synchronous_commit', 'off', true) as synchronous_commit
      from o left join counted c on c.id = o.delivery_id left join status st on st.id = c.subscription_id`,
  );
  const byDelivery = new Map(rows.map((r) => [r.delivery_id, r]));
  // A subscription's turn is announced once, with the last of its attempts here.
  const lastOf = new Map<string, number>();
  attempts.forEach(({ batch }, i) => {
    if (once[i] && byDelivery.get(batch.deliveryId)?.recorded) lastOf.set(batch.subscriptionId, i);
  });
  const counts: RecordedCounts[] = [];
  for (const [i, { batch, outcome: o }] of attempts.entries()) {
    const row = once[i] ? byDelivery.get(batch.deliveryId) : undefined;
    if (!row?.recorded) {
      counts.push({
        recorded: false,
        delivered: 0,
        failed: 0,
        deadLettered: 0,
        turned: null,
        paused: false,
        minute: row?.minute ?? '',
      });
      continue;
    }
    // A 410 pauses the subscription as the API does, with its event; of two records at once, the one that did.
    const paused =
      o.outcome === 'paused' && (await pauseSubscription(tx, batch, batch.subscriptionId, GONE))?.changed === true;
    counts.push({
      recorded: true,
      delivered: row.delivered,
      failed: row.failed,
      deadLettered: row.dead,
      turned: row.turned && lastOf.get(batch.subscriptionId) === i ? (row.health as 'failing' | 'healthy') : null,
      paused,
      minute: row.minute,
    });
  }
  return counts;
}

/** Who pauses a subscription whose target answered 410 Gone, and why, in the audit log. */
const GONE: StateChangeSource = {
  actor: SYSTEM_ACTOR,
  context: { requestId: null, ip: null, userAgent: null },
  reason: 'The target answered 410 Gone.',
};

/** Gives back a delivery not recorded (shutdown, or a secret this instance cannot open): no attempt counted. */
export async function releaseBatch(deliveryId: string): Promise<void> {
  await releaseDeliveries(await getDb(), [deliveryId]);
}

async function releaseDeliveries(db: Tx | Awaited<ReturnType<typeof getDb>>, deliveryIds: string[]): Promise<void> {
  const ids = sql`array[${sql.join(
    deliveryIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  )}]`;
  await db.execute(sql`
    with d as (
      update subscription_deliveries set finished_at = now(), outcome = 'released'
      where id = any(${ids}) and finished_at is null
      returning id, subscription_id
    )
    update subscription_messages m set delivery_id = null, available_at = now()
    from d where m.subscription_id = d.subscription_id and m.delivery_id = d.id`);
}
