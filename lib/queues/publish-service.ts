import { randomUUID } from 'node:crypto';
import { runStatement } from '../db/client';
import { allocationQuotaExceeded, notFound } from '../errors';
import { maxBacklog } from './limits';
import { messagesPublished } from './metrics';
import { notifyPublished } from './published';
import type { OutgoingMessage } from './schema';
import { projectResourceName, type QueueScope } from './service';

type Outcome = {
  queues: number;
  stored: number;
  /** Whether a subscription of the queue sends now (active, to an https target). */
  sends: boolean;
  over_id: string | null;
  over_project: string | null;
  over_pending: string | null;
};

/**
 * The publish as one statement (its own transaction: all or nothing, one round trip). It locks the queue against a
 * concurrent delete and the subscriptions against theirs (a deleted one is skipped, not a foreign-key failure),
 * takes the backlog counts for update so concurrent publishes count one after another, and stores the messages and
 * their rows for every subscription only when no backlog would pass the limit. Values: $1 the queue, $2 its
 * organization, $3 its project, $4 the messages (a JSON array), $5 how many, $6 the backlog limit, $7 now.
 */
const PUBLISH = `with queue as (
      select q.id from queues q where q.id = $1::uuid and q.organization_id = $2::uuid and q.project_id = $3::uuid
      for key share
    ), subs as (
      select s.id, s.project_id, s.state = 'active' and s.target->>'kind' = 'https' as sends
      from subscriptions s join queue on s.queue_id = queue.id for key share of s
    ), backlogs as (
      select b.subscription_id, b.pending from subscription_backlogs b
      where b.subscription_id in (select id from subs) for no key update
    ), over as (
      select s.id, s.project_id, coalesce(b.pending, 0) as pending
      from subs s left join backlogs b on b.subscription_id = s.id
      where coalesce(b.pending, 0) + $5::integer > $6::bigint
      order by 3 desc limit 1
    ), incoming as (
      select (m->>'id')::uuid as id, m->'body' as body, coalesce(m->'attributes', '{}'::jsonb) as attributes,
        $7::timestamptz + (m->>'delaySeconds')::integer * interval '1 second' as available_at
      from jsonb_array_elements($4::jsonb) as m
    ), stored as (
      insert into queue_messages (id, organization_id, queue_id, body, attributes, published_at)
      select i.id, $2::uuid, queue.id, i.body, i.attributes, $7::timestamptz from incoming i cross join queue
      where not exists (select 1 from over)
      returning id
    ), fanned as (
      insert into subscription_messages (subscription_id, message_id, state, available_at, published_at)
      select s.id, i.id, 'pending', i.available_at, $7::timestamptz from stored join incoming i using (id) cross join subs s
      returning 1
    )
    select (select count(*)::int from queue) as queues, (select count(*)::int from stored) as stored,
      exists (select 1 from subs where sends) as sends,
      over.id as over_id, over.project_id as over_project, over.pending::text as over_pending
    from (select 1) as one left join over on true`;

/**
 * Publishes 1..100 messages to a queue: stored once, and pending for every subscription of the queue (any state,
 * any target) from `delaySeconds` after now. The ids are made here, so they come back in the request's order.
 * 404 for a queue outside the caller's project; 409 `quota_exceeded` when a subscription's undelivered messages
 * would pass QUEUE_MAX_BACKLOG, nothing stored.
 */
export async function publishMessages(
  scope: QueueScope,
  queueId: string,
  messages: OutgoingMessage[],
): Promise<{ messageIds: string[] }> {
  const rows = messages.map((m) => ({
    id: randomUUID(),
    body: m.body,
    attributes: m.attributes,
    delaySeconds: m.delaySeconds ?? 0,
  }));
  const limit = maxBacklog();
  const values = [queueId, scope.organizationId, scope.projectId, JSON.stringify(rows), rows.length, limit, new Date()];
  const [outcome] = await runStatement<Outcome>(PUBLISH, values);
  if (outcome.queues === 0) throw notFound('Queue not found.');
  if (outcome.over_id) {
    const used = Number(outcome.over_pending);
    const subscription = `${projectResourceName({ organizationId: scope.organizationId, projectId: outcome.over_project! })}/subscriptions/${outcome.over_id}`;
    throw allocationQuotaExceeded(
      `A subscription of this queue has ${used} undelivered messages; ${rows.length} more would pass its limit of ${limit}. Nothing was stored.`,
      { id: 'queue_backlog', limit, used, scope: 'resource', scopeResourceName: subscription },
    );
  }
  messagesPublished.inc(outcome.stored);
  // Paused and workflow subscriptions only keep what they receive: nothing for the delivery loop to look at now.
  if (outcome.sends && rows.some((r) => r.delaySeconds === 0)) notifyPublished(queueId);
  return { messageIds: rows.map((r) => r.id) };
}
