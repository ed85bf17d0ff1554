-- A subscription batch's record and its successor's lease in one statement (issue 70): the engine's cycle for a
-- target is the POST and this one round trip, where a record transaction took five (begin, record, lock, lease,
-- commit). It calls migration 0026's functions, unchanged, so the previous release runs beside it. Named by
-- version, as those are (docs/deploy.md). lib/subscriptions/delivery-service.ts documents what it does.

-- Records the attempts (`p_sent`, `p_failed`: as `subscription_record_v1` takes them), then leases one batch in
-- place of each delivery of `p_refill` this call recorded, of its subscription: locked `for share`, skipping one
-- another transaction holds, while active, signable and under its cap (`subscription_lease_v1`'s refill). With
-- `p_alone` (the statement is its own transaction), a health turn raises SQLSTATE SVH01 and nothing is written: a
-- turn's announcement (a webhook event, console notices) must commit with it, so the caller records again inside a
-- transaction that writes both. Rows, by `kind`: `recorded` (one per attempt, `detail` as the record returns it),
-- `subscription` (each locked one, `detail` its columns a batch is built from), `message` (the leased messages, as
-- `subscription_lease_v1` returns them).
CREATE FUNCTION "subscription_finish_v1"("p_sent" jsonb, "p_failed" jsonb, "p_refill" uuid[], "p_alone" boolean,
    "p_lease_margin_seconds" integer, "p_max_batch_bytes" integer, "p_message_envelope_bytes" integer)
  RETURNS TABLE ("kind" text, "delivery_id" uuid, "subscription_id" uuid, "message_id" uuid, "attempts" integer,
    "published_at" text, "body" text, "attributes" text, "detail" json)
  LANGUAGE plpgsql
  SET plan_cache_mode = force_generic_plan
  AS $$
#variable_conflict use_column
DECLARE
  v_recorded json;
  v_turned boolean;
  v_refill uuid[];
  v_locked json;
  v_ids uuid[];
BEGIN
  select coalesce(json_agg(r), '[]'::json), coalesce(bool_or(r.turned), false),
    array_agg(r.delivery_id) filter (where r.recorded and r.delivery_id = any(p_refill))
  into v_recorded, v_turned, v_refill
  from subscription_record_v1(p_sent, p_failed) r;
  IF v_turned AND p_alone THEN
    RAISE EXCEPTION 'A subscription''s health turned: its record must commit with its announcement.'
      USING ERRCODE = 'SVH01';
  END IF;
  RETURN QUERY select 'recorded', (e->>'delivery_id')::uuid, null::uuid, null::uuid, null::int, null::text,
    null::text, null::text, e
  from json_array_elements(v_recorded) e;
  IF v_refill IS NULL THEN
    RETURN;
  END IF;
  select coalesce(json_agg(l), '[]'::json), array_agg(l.id) into v_locked, v_ids from (
    select s.id, s.slug, s.organization_id, s.project_id, s.queue_id, s.target->>'url' as url,
      (s.target->>'timeoutSeconds')::int as timeout_seconds, s.secret_box, s.previous_secret_box,
      s.previous_secret_until, s.retry_max_attempts, s.retry_min_backoff_seconds, s.retry_max_backoff_seconds
    from subscriptions s
    where s.id in (select d.subscription_id from subscription_deliveries d where d.id = any(v_refill))
      and s.state = 'active' and s.target->>'kind' = 'https' and s.secret_box is not null
    order by s.id
    for share of s skip locked
  ) l;
  IF v_ids IS NULL THEN
    RETURN;
  END IF;
  RETURN QUERY select 'subscription', (e->>'id')::uuid, (e->>'id')::uuid, null::uuid, null::int, null::text,
    null::text, null::text, e
  from json_array_elements(v_locked) e;
  RETURN QUERY select 'message', l.delivery_id, l.subscription_id, l.message_id, l.attempts, l.published_at, l.body,
    l.attributes, null::json
  from subscription_lease_v1(v_ids, 0, v_refill, p_lease_margin_seconds, p_max_batch_bytes,
    p_message_envelope_bytes) l;
END
$$;
