import { and, eq, lt, lte, sql } from 'drizzle-orm';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { settings } from '../settings/settings';

const DAY_MS = 86_400_000;
/** At most this many events per organization per run, so the chain head is never locked for long. */
const PRUNE_BATCH = 10_000;

export function auditRetentionDays(): number {
  return settings().AUDIT_RETENTION_DAYS;
}

/**
 * Deletes events older than the retention, oldest first, and moves each organization's checkpoint to the
 * last deleted event (its seq and hash), so verification of what remains starts from there and passes.
 */
export async function pruneAuditEvents(now = new Date(), retentionDays = auditRetentionDays()): Promise<number> {
  const db = await getDb();
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS);
  const due = await db
    .select({
      organizationId: t.auditEvents.organizationId,
      seq: sql<number>`max(${t.auditEvents.seq})`.mapWith(Number),
    })
    .from(t.auditEvents)
    .where(lt(t.auditEvents.occurredAt, cutoff))
    .groupBy(t.auditEvents.organizationId);
  let pruned = 0;
  for (const { organizationId, seq } of due) {
    pruned += await db.transaction(async (tx) => {
      // The head's lock orders this with writers of the organization (they take the same row first).
      const [head] = await tx
        .select({ prunedSeq: t.auditChainHeads.prunedSeq })
        .from(t.auditChainHeads)
        .where(eq(t.auditChainHeads.organizationId, organizationId))
        .for('update');
      if (!head) return 0;
      const upTo = Math.min(seq, head.prunedSeq + PRUNE_BATCH);
      const [last] = await tx
        .select({ hash: t.auditEvents.hash })
        .from(t.auditEvents)
        .where(and(eq(t.auditEvents.organizationId, organizationId), eq(t.auditEvents.seq, upTo)));
      if (!last) return 0;
      // The checkpoint moves first: migration 0011's trigger treats a delete at or behind it as retention, and any
      // other delete of an event as tampering (it resets the organization's verified prefix).
      await tx
        .update(t.auditChainHeads)
        .set({ prunedSeq: upTo, prunedHash: last.hash })
        .where(eq(t.auditChainHeads.organizationId, organizationId));
      const deleted = await tx
        .delete(t.auditEvents)
        .where(and(eq(t.auditEvents.organizationId, organizationId), lte(t.auditEvents.seq, upTo)))
        .returning({ seq: t.auditEvents.seq });
      return deleted.length;
    });
  }
  return pruned;
}
