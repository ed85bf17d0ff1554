import { randomUUID } from 'node:crypto';
import { eq, sql, type SQL } from 'drizzle-orm';
import { noteOutboxInsert, outboxInsert } from './outbox';
import * as t from '../db/schema';
import type { DbOrTx } from '../db/client';
import { textAsSql, type StatementValues } from '../db/statement';
import { eventJsonAroundSeq, GENESIS_HASH, type HashedEvent } from './chain';
import type { AuditEventInput } from '../db/audit-types';
import { auditEventsWritten } from '../observability/metrics';

type UserEventInput = Omit<AuditEventInput, 'organizationId'>;

// PostgreSQL's jsonb refuses U+0000 in strings; a user agent or comment may carry one. The round trip through
// JSON also makes the event exactly what the database will store (a Date becomes its ISO text), which is what
// the hash must cover: always taken, not only when there is a U+0000.
function withoutNul<T>(value: T): T {
  return JSON.parse(JSON.stringify(value).replaceAll('\\u0000', '\\ufffd')) as T;
}

/** The event as hashed, but for its seq, which the database assigns under the chain's lock. */
function eventOf(input: AuditEventInput, now: Date): Omit<HashedEvent, 'seq'> {
  return withoutNul<Omit<HashedEvent, 'seq'>>({
    id: randomUUID(),
    organizationId: input.organizationId,
    occurredAt: now.toISOString(),
    action: input.action,
    actor: input.actor,
    target: input.target,
    projectId: input.projectId ?? null,
    changes: input.changes ?? [],
    reason: input.reason ?? null,
    context: input.context,
  });
}

/**
 * Appends one event to its organization's chain, inside the caller's transaction (`tx`), so the event
 * commits or rolls back with the change it records. One statement: it takes the organization's chain head
 * (row lock, held to commit: writers of one organization serialize, across instances), assigns seq + 1
 * and computes the hash in the database from the head's hash. Call it as the transaction's last statement
 * so the head stays locked as briefly as possible; several events of one transaction go in the order given
 * (`recordAuditEvents` sorts them by organization, so two transactions never wait on each other in a cycle).
 */
export async function recordAuditEvent(tx: DbOrTx, input: AuditEventInput, now = new Date()): Promise<void> {
  const event = eventOf(input, now);
  const [before, after] = eventJsonAroundSeq(event);
  const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;
  const result = await tx.execute(sql`
    with head as (
      insert into audit_chain_heads as h (organization_id, seq, hash)
      values (${event.organizationId}::uuid, 1,
        encode(sha256(convert_to(${GENESIS_HASH}::text || ${before}::text || '1' || ${after}::text, 'UTF8')), 'hex'))
      on conflict (organization_id) do update set
        seq = h.seq + 1,
        hash = encode(sha256(convert_to(h.hash || ${before}::text || (h.seq + 1)::text || ${after}::text, 'UTF8')), 'hex')
      returning seq, hash
    ), recorded as (
    insert into audit_events
      (id, organization_id, seq, occurred_at, action, actor, target, project_id, changes, reason, context, hash)
    select ${event.id}::uuid, ${event.organizationId}::uuid, head.seq, ${event.occurredAt}::timestamptz, ${event.action}::text,
      ${json(event.actor)}, ${json(event.target)}, ${event.projectId}::uuid, ${json(event.changes)}, ${event.reason}::text,
      ${json(event.context)}, head.hash
    from head
    returning 1
    )
    ${outboxStatement(event)}`);
  noteOutboxInsert(tx, result);
  auditEventsWritten.inc({ action: event.action });
}

/** The outbox insert (lib/audit/outbox.ts) as a drizzle fragment, gated on the event's insert. */
const outboxStatement = (event: { id: string; organizationId: string; action: string }): SQL =>
  textAsSql((p) => outboxInsert('recorded', event, p));

/** Several events of one transaction (a user's sign-in in each of their organizations), in lock order. */
export async function recordAuditEvents(tx: DbOrTx, inputs: AuditEventInput[], now = new Date()): Promise<void> {
  const ordered = [...inputs].sort((a, b) => (a.organizationId < b.organizationId ? -1 : 1));
  for (const input of ordered) await recordAuditEvent(tx, input, now);
}

/** The organizations a user belongs to now: where events about the user rather than one organization go. */
export async function organizationsOfUser(tx: DbOrTx, userId: string): Promise<string[]> {
  const rows = await tx
    .select({ organizationId: t.memberships.organizationId })
    .from(t.memberships)
    .where(eq(t.memberships.userId, userId));
  return rows.map((r) => r.organizationId);
}

/** An event about a user (sign-in, device login, OAuth revocation), written to each of their organizations. */
export async function recordUserAuditEvent(
  tx: DbOrTx,
  userId: string,
  input: UserEventInput,
  now = new Date(),
): Promise<void> {
  const organizations = await organizationsOfUser(tx, userId);
  await recordAuditEvents(
    tx,
    organizations.map((organizationId) => ({ ...input, organizationId })),
    now,
  );
}

// A lone surrogate: no stored or accepted text holds one (the input rules refuse them), and JSON escapes it.
const MARK = '\ud800';
const VALUE_IN_JSON = /"\\ud800([a-z_.]+)\\ud800"/;

/**
 * A value of an event that only the statement recording it knows, such as the comment a change replaced:
 * `column` names it among the statement's rows (`updated.previous_comment`), a text or integer column.
 */
export function statementValue(column: string): string {
  if (!/^[a-z_.]+$/.test(column)) throw new Error(`not a column reference: ${column}`);
  return `${MARK}${column}${MARK}`;
}

/** JSON text with statement values in it, as a SQL text expression: its literal parts as parameters. */
function jsonText(json: string, values: StatementValues): string {
  // split() with a capturing group alternates literal text and column references.
  const parts = json.split(VALUE_IN_JSON);
  const sql = parts.map((part, i) => (i % 2 === 1 ? `to_json(${part})::text` : values.add(part, 'text')));
  return sql.length === 1 ? sql[0] : `(${sql.join(' || ')})`;
}

/**
 * The event of a change made by a single statement, as two CTEs of that same statement (`audit_head`,
 * `audit_event`), so the change and its event commit together without a transaction around them: one
 * round trip instead of four. The event is written when `gate`, a CTE of at most one row, has a row.
 * PostgreSQL's `to_json(text)` writes strings and integers as `JSON.stringify` does, so the hash over the
 * statement's values is the one `chainHash` recomputes. The organization's chain head exists from its
 * creation (migration 0007) and moves on by an UPDATE: without one, seq is null and the statement fails.
 */
export function auditEventCtes(
  input: AuditEventInput,
  values: StatementValues,
  gate: string,
  now = new Date(),
): string {
  const event = eventOf(input, now);
  const [before, after] = eventJsonAroundSeq(event);
  const organizationId = values.add(event.organizationId, 'uuid');
  const jsonb = (value: unknown) => `${jsonText(JSON.stringify(value), values)}::jsonb`;
  return `audit_head as (
    update audit_chain_heads h
    set seq = h.seq + 1,
      hash = encode(sha256(convert_to(h.hash || ${jsonText(before, values)} || (h.seq + 1)::text || ${jsonText(after, values)}, 'UTF8')), 'hex')
    from ${gate}
    where h.organization_id = ${organizationId}
    returning h.seq, h.hash
  ), audit_event as (
    insert into audit_events
      (id, organization_id, seq, occurred_at, action, actor, target, project_id, changes, reason, context, hash)
    select ${values.add(event.id, 'uuid')}, ${organizationId}, audit_head.seq, ${values.add(event.occurredAt, 'timestamptz')},
      ${values.add(event.action, 'text')}, ${jsonb(event.actor)}, ${jsonb(event.target)},
      ${values.add(event.projectId, 'uuid')}, ${jsonb(event.changes)}, ${values.add(event.reason, 'text')},
      ${jsonb(event.context)}, audit_head.hash
    from ${gate} left join audit_head on true
  ), audit_outbox as (
    ${outboxInsert(gate, event, (value, type) => values.add(value, type))}
  )`;
}
