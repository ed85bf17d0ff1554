import { sql, type SQL } from 'drizzle-orm';
import { getDb } from '../db/client';
import { RETENTION_START } from './delivery-rules';
import { queueBacklog, queueDeliveries } from './metrics';
import { queryRows } from '../db/statement';

const BATCH = 1_000;

/** Up to BATCH messages of any subscription that meet `condition` (over `m`, with its queue as `q`). */
const outlived = (condition: SQL) => sql`
        select m.subscription_id, m.message_id
        from subscriptions s join queues q on q.id = s.queue_id
        cross join lateral (
          select m.subscription_id, m.message_id from subscription_messages m
          where m.subscription_id = s.id and ${condition}
          limit ${BATCH}
        ) m
        limit ${BATCH}`;

/**
 * One pass of the queues' retention, in batches: pending messages older than their queue's retention (not in a
 * live lease) expire, counted per subscription and minute; dead letters go once they have been dead that long (a
 * dead letter was counted when it died); a stored message no subscription holds any more, a minute after its
 * publication, is deleted. Returns how many rows it removed, so a full batch runs again at once.
 */
export async function expireMessages(): Promise<number> {
  const db = await getDb();
  const [expired] = await queryRows<{ n: number }>(
    db,
    sql`
      with due as (${outlived(sql`m.state = 'pending'
            and m.published_at < ${RETENTION_START}
            -- A redriven message's retention counts from its redrive.
            and (m.dead_lettered_at is null or m.dead_lettered_at < ${RETENTION_START})
            and (m.delivery_id is null or m.available_at <= now())`)}
      ), gone as (
        delete from subscription_messages m using due
        where m.subscription_id = due.subscription_id and m.message_id = due.message_id
        returning m.subscription_id
      ), counted as (
        insert into subscription_minutes (subscription_id, minute, expired)
        select subscription_id, date_trunc('minute', now()), count(*) from gone group by subscription_id
        on conflict (subscription_id, minute) do update set expired = subscription_minutes.expired + excluded.expired
      )
      select count(*)::int as n from gone`,
  );
  queueDeliveries.inc({ outcome: 'expired' }, expired.n);
  const [dead] = await queryRows<{ n: number }>(
    db,
    sql`
      with due as (${outlived(sql`m.state = 'dead' and m.dead_lettered_at < ${RETENTION_START}`)}
      ), gone as (
        delete from subscription_messages m using due
        where m.subscription_id = due.subscription_id and m.message_id = due.message_id
        returning 1
      )
      select count(*)::int as n from gone`,
  );
  const [stored] = await queryRows<{ n: number }>(
    db,
    sql`
      with gone as (
        delete from queue_messages q
        where q.id in (
          select q.id from queue_messages q
          where q.published_at < now() - interval '1 minute'
            and not exists (select 1 from subscription_messages m where m.message_id = q.id)
          limit ${BATCH})
        returning 1
      )
      select count(*)::int as n from gone`,
  );
  return expired.n + dead.n + stored.n;
}

/** The backlog gauge: pending (ready or delayed), in flight and dead-lettered, summed over every subscription. */
export async function measureBacklog(): Promise<void> {
  const db = await getDb();
  const [row] = await queryRows<{ pending: number; dead: number; in_flight: number }>(
    db,
    sql`
      select coalesce(sum(pending), 0)::bigint as pending, coalesce(sum(dead), 0)::bigint as dead,
        (select coalesce(sum(messages), 0)::bigint from subscription_deliveries
         where finished_at is null and lease_until > now()) as in_flight
      from subscription_backlogs`,
  );
  queueBacklog.set({ state: 'in_flight' }, Number(row.in_flight));
  queueBacklog.set({ state: 'pending' }, Number(row.pending) - Number(row.in_flight));
  queueBacklog.set({ state: 'dead_lettered' }, Number(row.dead));
}
