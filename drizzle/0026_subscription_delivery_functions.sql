-- A subscription batch's lease and its record, as functions (issue 70): PL/pgSQL keeps each statement's plan for its
-- session, so the two largest statements of every batch are parsed and planned once per connection, not once per
-- batch (a third of the database's work per batch, profiled). Generic plans always: with PostgreSQL's default
-- choice, their estimates (a parameter's JSON holds 100 rows, an array 10) made it plan each call again. Named by version: a change is a new function, and the
-- release after it drops the old one, so two releases side by side each call the body they were built with.
-- lib/subscriptions/delivery-service.ts documents what each does.

-- Leases batches of the subscriptions `p_ids`, locked by the caller. A claim (`p_refill` null): at most `p_claim`
-- batches in all, each subscription's first, then the seconds, and so on; every subscription looked at goes to the
-- back of the claims' line. A refill: for the deliveries `p_refill` just recorded in this transaction, at most one
-- batch in place of each whose lease was still live, of its subscription. Either way a subscription gets at most
-- `max_concurrency` minus its live leases, counted here, after the caller's locks are held.
CREATE FUNCTION "subscription_lease_v1"("p_ids" uuid[], "p_claim" integer, "p_refill" uuid[],
    "p_lease_margin_seconds" integer, "p_max_batch_bytes" integer, "p_message_envelope_bytes" integer)
  RETURNS TABLE ("delivery_id" uuid, "subscription_id" uuid, "message_id" uuid, "attempts" integer,
    "published_at" text, "body" text, "attributes" text)
  LANGUAGE plpgsql
  SET plan_cache_mode = force_generic_plan
  AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  with wanted as (
    -- How many batches each subscription may start, before its cap. A refill replaces only a lease well short of
    -- its end: one running out as this statement commits could have been left uncounted by a claim meanwhile.
    select w.id, p_claim as n from unnest(p_ids) as w(id) where p_refill is null
    union all
    select d.subscription_id, count(*)::int from subscription_deliveries d
    where p_refill is not null and d.id = any(p_refill) and d.lease_until > now() + interval '5 seconds'
    group by d.subscription_id
  ), slots as (
    select s.id, s.organization_id, s.batch_size,
      least(s.max_concurrency - (select count(*) from subscription_deliveries d
                                 where d.subscription_id = s.id and d.finished_at is null and d.lease_until > now()),
            w.n) as free,
      (s.target->>'timeoutSeconds')::int + p_lease_margin_seconds as lease_seconds,
      now() - make_interval(secs => q.retention_seconds) as kept_since
    from subscriptions s join queues q on q.id = s.queue_id join wanted w on w.id = s.id
    where s.id = any(p_ids)
  ), picked as (
    select sl.id as subscription_id, m.message_id, m.available_at, m.bytes,
      (row_number() over (partition by sl.id order by m.available_at, m.message_id) - 1) / sl.batch_size as batch
    from slots sl cross join lateral (
      select m.message_id, m.available_at,
        octet_length(q.body::text) + octet_length(q.attributes::text) + p_message_envelope_bytes as bytes
      from subscription_messages m join queue_messages q on q.id = m.message_id
      where m.subscription_id = sl.id and m.state = 'pending' and m.available_at <= now()
        -- Within its queue's retention: a message past it is never sent, whether or not the expiry pass has run.
        and (m.published_at >= sl.kept_since or m.dead_lettered_at >= sl.kept_since)
      order by m.available_at limit greatest(sl.free, 0) * sl.batch_size
      -- Two refills of one subscription may run at once: a message another is leasing is skipped, and one it
      -- leased since this statement began is seen leased (its new row is checked again) and skipped too.
      for no key update of m skip locked
    ) m
  ), fitted as (
    -- A batch's body stays within p_max_batch_bytes: the messages past it stay ready for the next claim.
    select p.subscription_id, p.message_id, p.batch from (
      select p.*, sum(p.bytes) over (partition by p.subscription_id, p.batch
                                     order by p.available_at, p.message_id) as upto
      from picked p
    ) p where p.upto <= p_max_batch_bytes
  ), ranked as (
    select f.subscription_id, f.batch, count(*)::int as n,
      row_number() over (order by f.batch, array_position(p_ids, f.subscription_id)) as rank
    from fitted f group by f.subscription_id, f.batch
  ), batches as (
    select r.subscription_id, r.batch, r.n, gen_random_uuid() as delivery_id from ranked r
    where r.rank <= coalesce(cardinality(p_refill), p_claim)
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
  ), touched as (
    -- A claim sends every subscription it looked at to the back of the line; a refill, which holds only a share
    -- lock on them, writes nothing to their rows.
    update subscriptions set claimed_at = now() where p_refill is null and id = any(p_ids)
  )
  select l.delivery_id, l.subscription_id, l.message_id, l.attempts,
    to_char(l.published_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    q.body::text, q.attributes::text
  from leased l join queue_messages q on q.id = l.message_id
  order by l.delivery_id, l.published_at, l.message_id;
END
$$;--> statement-breakpoint

-- Records attempts (`p_sent`: ord, delivery_id, outcome, status, duration_ms, error; `p_failed`: delivery_id, id,
-- retry_in_ms), each while its delivery is still unrecorded. One row per attempt in `p_sent`.
CREATE FUNCTION "subscription_record_v1"("p_sent" jsonb, "p_failed" jsonb)
  RETURNS TABLE ("delivery_id" uuid, "recorded" boolean, "delivered" integer, "failed" integer, "dead" integer,
    "health" text, "turned" boolean, "minute" text)
  LANGUAGE plpgsql
  SET plan_cache_mode = force_generic_plan
  AS $$
#variable_conflict use_column
BEGIN
  -- An attempt's record lost with the database's last moments only sends it again: no wait for the WAL flush.
  PERFORM set_config('synchronous_commit', 'off', true);
  RETURN QUERY
  with o as (
    select * from jsonb_to_recordset(p_sent)
      as o(ord int, delivery_id uuid, outcome text, status int, duration_ms int, error jsonb)
  ), f as (
    select * from jsonb_to_recordset(p_failed) as f(delivery_id uuid, id uuid, retry_in_ms bigint)
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
    -- The failures in a row and the health from the subscription's row as locked by this update, never from the
    -- statement's snapshot, which a record committed meanwhile by another instance would have made stale.
    update subscriptions s
    set last_success_at = case when n.any_ok then now() else s.last_success_at end,
      last_error = coalesce(n.last_error, s.last_error),
      consecutive_failures = n.fails + case when n.any_ok then 0 else s.consecutive_failures end,
      health = case when n.fails > 0 and n.fails + case when n.any_ok then 0 else s.consecutive_failures end >= 3
          then 'failing' when n.any_ok then 'healthy' else s.health end,
      health_turn_xid = case when s.health <> (
          case when n.fails > 0 and n.fails + case when n.any_ok then 0 else s.consecutive_failures end >= 3
            then 'failing' when n.any_ok then 'healthy' else s.health end)
        then txid_current() else s.health_turn_xid end
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
  select o.delivery_id, c.id is not null, coalesce(c.delivered, 0), coalesce(c.failed, 0), coalesce(c.dead, 0),
    st.health, st.turned,
    to_char(date_trunc('minute', now()) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
  from o left join counted c on c.id = o.delivery_id left join status st on st.id = c.subscription_id;
END
$$;
