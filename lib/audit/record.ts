import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import * as t from '../db/schema';
import type { DbOrTx } from '../db/client';
import { eventJsonAroundSeq, GENESIS_HASH, type HashedEvent } from './chain';
import type { AuditEventInput } from './types';

type UserEventInput = Omit<AuditEventInput, 'organizationId'>;

// PostgreSQL's jsonb refuses U+0000 in strings; a user agent or comment may carry one.
function withoutNul<T>(value: T): T {
  return JSON.parse(JSON.stringify(value).replaceAll('\\u0000', '\\ufffd')) as T;
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
  const event = withoutNul<Omit<HashedEvent, 'seq'>>({
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
  const [before, after] = eventJsonAroundSeq(event);
  const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;
  await tx.execute(sql`
    with head as (
      insert into audit_chain_heads as h (organization_id, seq, hash)
      values (${event.organizationId}::uuid, 1,
        encode(sha256(convert_to(${GENESIS_HASH}::text || ${before}::text || '1' || ${after}::text, 'UTF8')), 'hex'))
      on conflict (organization_id) do update set
        seq = h.seq + 1,
        hash = encode(sha256(convert_to(h.hash || ${before}::text || (h.seq + 1)::text || ${after}::text, 'UTF8')), 'hex')
      returning seq, hash
    )
    insert into audit_events
      (id, organization_id, seq, occurred_at, action, actor, target, project_id, changes, reason, context, hash)
    select ${event.id}::uuid, ${event.organizationId}::uuid, head.seq, ${event.occurredAt}::timestamptz, ${event.action}::text,
      ${json(event.actor)}, ${json(event.target)}, ${event.projectId}::uuid, ${json(event.changes)}, ${event.reason}::text,
      ${json(event.context)}, head.hash
    from head`);
}

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
