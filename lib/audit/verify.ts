import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { chainVerifier, GENESIS_HASH, type ChainCheckpoint, type ChainVerification, type HashedEvent } from './chain';
import { toAuditEvent } from './service';

const BATCH = 1_000;

type Row = typeof t.auditEvents.$inferSelect;

/** A stored row as the hash saw it. */
export function hashedEventOf(row: Row): HashedEvent & { hash: string } {
  return { ...toAuditEvent(row), organizationId: row.organizationId, hash: row.hash };
}

/**
 * Where a quick verification starts: the newest verified prefix (audit_checkpoints), provided the event that
 * ended it still holds the hash it had then, and it is past the retention checkpoint; else the retention
 * checkpoint, as a full verification always does.
 */
async function startOf(organizationId: string, retention: ChainCheckpoint, full: boolean): Promise<ChainCheckpoint> {
  if (full) return retention;
  const db = await getDb();
  const [verified] = await db
    .select({ seq: t.auditCheckpoints.seq, hash: t.auditCheckpoints.hash, stored: t.auditEvents.hash })
    .from(t.auditCheckpoints)
    .leftJoin(
      t.auditEvents,
      and(eq(t.auditEvents.organizationId, organizationId), eq(t.auditEvents.seq, t.auditCheckpoints.seq)),
    )
    .where(eq(t.auditCheckpoints.organizationId, organizationId));
  if (!verified || verified.seq <= retention.seq || verified.stored !== verified.hash) return retention;
  return { seq: verified.seq, hash: verified.hash };
}

/** Moves the organization's verified prefix forward (never back: another instance may be further on). */
async function saveCheckpoint(organizationId: string, checkpoint: ChainCheckpoint): Promise<void> {
  const db = await getDb();
  await db
    .insert(t.auditCheckpoints)
    .values({ organizationId, ...checkpoint, verifiedAt: new Date() })
    .onConflictDoUpdate({
      target: t.auditCheckpoints.organizationId,
      set: { seq: checkpoint.seq, hash: checkpoint.hash, verifiedAt: new Date() },
      setWhere: sql`${t.auditCheckpoints.seq} < ${checkpoint.seq}`,
    });
}

export type VerifyOptions = {
  /** Re-hash from the retention checkpoint, ignoring verified prefixes: finds a row changed anywhere. */
  full?: boolean;
  /** Called after each batch with the events checked so far (the re-verification job's progress). */
  onProgress?: (checked: number) => Promise<void> | void;
};

/**
 * Walks the organization's chain to its head, a batch at a time, from its newest verified prefix (so a
 * verification re-hashes only what is new) or, with `full`, from the retention checkpoint. `verified` counts
 * every event from the retention checkpoint that checks out, including the prefix verified before.
 */
export async function verifyAuditChain(
  organizationId: string,
  { full = false, onProgress }: VerifyOptions = {},
): Promise<ChainVerification> {
  const db = await getDb();
  const [head] = await db.select().from(t.auditChainHeads).where(eq(t.auditChainHeads.organizationId, organizationId));
  const retention = head ? { seq: head.prunedSeq, hash: head.prunedHash } : { seq: 0, hash: GENESIS_HASH };
  const start = await startOf(organizationId, retention, full);
  const verifier = chainVerifier(start);
  let last = start;
  let verified = 0;
  for (;;) {
    const rows = await db
      .select()
      .from(t.auditEvents)
      .where(and(eq(t.auditEvents.organizationId, organizationId), gt(t.auditEvents.seq, last.seq)))
      .orderBy(asc(t.auditEvents.seq))
      .limit(BATCH);
    const intact = verifier.check(rows.map(hashedEventOf));
    // The rows that checked out are the batch's first ones; the last of them ends the verified prefix.
    const fresh = verifier.result(null).verified - verified;
    verified += fresh;
    if (fresh > 0) last = { seq: rows[fresh - 1].seq, hash: rows[fresh - 1].hash };
    await onProgress?.(last.seq - retention.seq);
    if (!intact || rows.length < BATCH) break;
  }
  if (last.seq > start.seq) await saveCheckpoint(organizationId, last);
  const result = verifier.result(head ? { seq: head.seq, hash: head.hash } : null);
  return { ...result, verified: result.verified + (start.seq - retention.seq) };
}
