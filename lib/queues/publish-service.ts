import { randomUUID } from 'node:crypto';
import { runStatement } from '../db/client';
import { Coalescer } from '../db/coalesce';
import { allocationQuotaExceeded, notFound } from '../errors';
import { messagesPublished } from './metrics';
import { notifyPublished } from './published';
import type { OutgoingMessage } from './schema';
import { projectResourceName, type QueueScope } from './service';
import { settings } from '../settings/settings';

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

type Row = { id: string; body: unknown; attributes: Record<string, string> | undefined; delaySeconds: number };
type Publish = { scope: QueueScope; queueId: string; rows: Row[] };
/** A publish's outcome in a shared statement: stored, or the error it answers. */
type Answer = { stored: true } | { stored: false; error: Error };

/** Most messages one shared statement stores: a larger batch goes as several statements, one after another. */
const BATCH_MESSAGES = 500;

/**
 * Publishes to one queue that arrive while a publish to it is in flight share the next statement: their messages
 * go in as one publish of them all. When they all fit under every subscription's backlog limit, all are stored
 * together; when they would not, nothing of them is, and each then runs alone in arrival order, decided on its own
 * as if it had come by itself (and so when the shared statement fails). So a publish is never refused for
 * another's sake, and under load one round trip (and, on PGlite, one crossing into its thread) serves many. Keyed
 * by organization, project and queue: a batch shares its 404 too.
 */
const batches = new Coalescer<string, Answer[]>((key, callers) => {
  const waiting = queued.get(key)!;
  const publishes = waiting.splice(0, callers);
  if (waiting.length === 0) queued.delete(key);
  return publishTogether(publishes);
});
const queued = new Map<string, Publish[]>();

async function publishTogether(publishes: Publish[]): Promise<Answer[]> {
  if (publishes.length === 1) return [await publishAlone(publishes[0])];
  const answers: Answer[] = [];
  for (let from = 0; from < publishes.length;) {
    let to = from + 1;
    let size = publishes[from].rows.length;
    while (to < publishes.length && size + publishes[to].rows.length <= BATCH_MESSAGES)
      size += publishes[to++].rows.length;
    const group = publishes.slice(from, to);
    const rows = group.flatMap((p) => p.rows);
    // A failed shared statement stored nothing: each publish then runs alone and answers its own outcome.
    const outcome = await runPublish(group[0].scope, group[0].queueId, rows).catch(() => null);
    if (outcome?.queues === 0) answers.push(...group.map(() => ({ stored: false as const, error: queueNotFound() })));
    else if (outcome && !outcome.over_id) {
      finish(group[0].queueId, rows, outcome);
      answers.push(...group.map(() => ({ stored: true as const })));
    } else
      for (const publish of group)
        answers.push(await publishAlone(publish).catch((error: Error) => ({ stored: false as const, error })));
    from = to;
  }
  return answers;
}

async function publishAlone({ scope, queueId, rows }: Publish): Promise<Answer> {
  const outcome = await runPublish(scope, queueId, rows);
  if (outcome.queues === 0) return { stored: false, error: queueNotFound() };
  if (outcome.over_id) return { stored: false, error: backlogExceeded(scope, rows.length, outcome) };
  finish(queueId, rows, outcome);
  return { stored: true };
}

async function runPublish(scope: QueueScope, queueId: string, rows: Row[]): Promise<Outcome> {
  const values = [
    queueId,
    scope.organizationId,
    scope.projectId,
    JSON.stringify(rows),
    rows.length,
    settings().QUEUE_MAX_BACKLOG,
    new Date(),
  ];
  const [outcome] = await runStatement<Outcome>(PUBLISH, values);
  return outcome;
}

function finish(queueId: string, rows: Row[], outcome: Outcome): void {
  messagesPublished.inc(outcome.stored);
  // Paused and workflow subscriptions only keep what they receive: nothing for the delivery loop to look at now.
  if (outcome.sends && rows.some((r) => r.delaySeconds === 0)) notifyPublished(queueId);
}

const queueNotFound = () => notFound('Queue not found.');

function backlogExceeded(scope: QueueScope, count: number, outcome: Outcome): Error {
  const limit = settings().QUEUE_MAX_BACKLOG;
  const used = Number(outcome.over_pending);
  const subscription = `${projectResourceName({ organizationId: scope.organizationId, projectId: outcome.over_project! })}/subscriptions/${outcome.over_id}`;
  return allocationQuotaExceeded(
    `A subscription of this queue has ${used} undelivered messages; ${count} more would pass its limit of ${limit}. Nothing was stored.`,
    { id: 'queue_backlog', limit, used, scope: 'resource', scopeResourceName: subscription },
  );
}

/**
 * Publishes 1..100 messages to a queue: stored once, and pending for every subscription of the queue (any state,
 * any target) from `delaySeconds` after now. The ids are made here, so they come back in the request's order.
 * 404 for a queue outside the caller's project; 409 `quota_exceeded` when a subscription's undelivered messages
 * would pass QUEUE_MAX_BACKLOG, nothing stored. Concurrent publishes to one queue share a statement (`batches`).
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
  const key = `${scope.organizationId}/${scope.projectId}/${queueId}`;
  // Queued and joined in one step: the batch that takes this publish is the one its place was kept in.
  const waiting = queued.get(key) ?? [];
  queued.set(key, waiting);
  waiting.push({ scope, queueId, rows });
  const { result, index } = await batches.join(key);
  const answer = result[index];
  if (!answer.stored) throw answer.error;
  return { messageIds: rows.map((r) => r.id) };
}
