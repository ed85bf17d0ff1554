import { and, asc, eq, gt, lte, sql } from 'drizzle-orm';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { auditEventsRehashed } from '../observability/metrics';
import { chainVerifier, GENESIS_HASH, type ChainCheckpoint, type ChainVerification, type HashedEvent } from './chain';
import { toAuditEvent } from './service';

const BATCH = 1_000;

type Row = typeof t.auditEvents.$inferSelect;

/** A stored row as the hash saw it. */
export function hashedEventOf(row: Row): HashedEvent & { hash: string } {
  return { ...toAuditEvent(row), organizationId: row.organizationId, hash: row.hash };
}

/** The organization's verified prefix as a verification found it, with the generation it must still hold to move. */
type Start = ChainCheckpoint & { generation: number };

/**
 * Where a quick verification starts: the newest verified prefix (audit_checkpoints), provided the event that
 * ended it still holds the hash it had then, and it is past the retention checkpoint; else the retention
 * checkpoint, as a full verification always does. Migration 0011's triggers reset the prefix (seq 0) whenever
 * a stored event is updated or deleted other than by retention, so such a change is re-hashed next time.
 */
async function startOf(organizationId: string, retention: ChainCheckpoint, full: boolean): Promise<Start> {
  const db = await getDb();
  const [verified] = await db
    .select({
      seq: t.auditCheckpoints.seq,
      hash: t.auditCheckpoints.hash,
      generation: t.auditCheckpoints.generation,
      stored: t.auditEvents.hash,
    })
    .from(t.auditCheckpoints)
    .leftJoin(
      t.auditEvents,
      and(eq(t.auditEvents.organizationId, organizationId), eq(t.auditEvents.seq, t.auditCheckpoints.seq)),
    )
    .where(eq(t.auditCheckpoints.organizationId, organizationId));
  const generation = verified?.generation ?? 0;
  if (full || !verified || verified.seq <= retention.seq || verified.stored !== verified.hash)
    return { ...retention, generation };
  return { seq: verified.seq, hash: verified.hash, generation };
}

/**
 * Moves the organization's verified prefix forward: never back (another instance may be further on), and not
 * at all when a trigger reset it (its generation moved) while this verification read the rows.
 */
async function saveCheckpoint(organizationId: string, checkpoint: ChainCheckpoint, generation: number) {
  const db = await getDb();
  await db
    .insert(t.auditCheckpoints)
    .values({ organizationId, ...checkpoint, generation, verifiedAt: new Date() })
    .onConflictDoUpdate({
      target: t.auditCheckpoints.organizationId,
      set: { seq: checkpoint.seq, hash: checkpoint.hash, verifiedAt: new Date() },
      setWhere: sql`${t.auditCheckpoints.seq} < ${checkpoint.seq} and ${t.auditCheckpoints.generation} = ${generation}`,
    });
}

/** Forgets the verified prefix (as the triggers do), so quick verifications re-hash from retention again. */
async function distrustCheckpoint(organizationId: string): Promise<void> {
  const db = await getDb();
  await db
    .update(t.auditCheckpoints)
    .set({ seq: 0, hash: '', generation: sql`${t.auditCheckpoints.generation} + 1`, verifiedAt: new Date() })
    .where(eq(t.auditCheckpoints.organizationId, organizationId));
}

export type VerifyOptions = {
  /** Re-hash from the retention checkpoint, ignoring verified prefixes: finds a row changed anywhere. */
  full?: boolean;
  /** Called after each batch with the events checked so far (the re-verification job's progress). */
  onProgress?: (checked: number) => Promise<void> | void;
};

export type VerifyOutcome = ChainVerification & {
  /** Events this call re-hashed (the rest were in the verified prefix it started from). */
  rehashed: number;
  /** Events from the retention checkpoint to the head as the walk began: what `verified` reaches when intact. */
  total: number;
};

/**
 * Walks the organization's chain to its head, a batch at a time, from its newest verified prefix (so a
 * verification re-hashes only what is new) or, with `full`, from the retention checkpoint. `verified` counts
 * every event from the retention checkpoint that checks out, including the prefix verified before. A full walk
 * that finds a break forgets the verified prefix, so the quick verification reports the break too.
 */
export async function verifyChainInDetail(
  organizationId: string,
  { full = false, onProgress }: VerifyOptions = {},
): Promise<VerifyOutcome> {
  const db = await getDb();
  const [head] = await db.select().from(t.auditChainHeads).where(eq(t.auditChainHeads.organizationId, organizationId));
  const retention = head ? { seq: head.prunedSeq, hash: head.prunedHash } : { seq: 0, hash: GENESIS_HASH };
  const start = await startOf(organizationId, retention, full);
  // Events written while the walk runs are left to the next one: the head read above is where it ends.
  const until = head?.seq ?? 0;
  const verifier = chainVerifier(start);
  let last: ChainCheckpoint = start;
  let verified = 0;
  let rehashed = 0;
  for (;;) {
    const rows = await db
      .select()
      .from(t.auditEvents)
      .where(
        and(
          eq(t.auditEvents.organizationId, organizationId),
          gt(t.auditEvents.seq, last.seq),
          lte(t.auditEvents.seq, until),
        ),
      )
      .orderBy(asc(t.auditEvents.seq))
      .limit(BATCH);
    const intact = verifier.check(rows.map(hashedEventOf));
    // The rows that checked out are the batch's first ones; the last of them ends the verified prefix.
    const fresh = verifier.result(null).verified - verified;
    verified += fresh;
    // What was hashed: the events that checked out and, at a break, the one that did not.
    rehashed += fresh + (intact || rows.length === fresh ? 0 : 1);
    if (fresh > 0) last = { seq: rows[fresh - 1].seq, hash: rows[fresh - 1].hash };
    await onProgress?.(last.seq - retention.seq);
    if (!intact || rows.length < BATCH || last.seq === until) break;
  }
  auditEventsRehashed.inc({ kind: full ? 'full' : 'quick' }, rehashed);
  if (last.seq > start.seq) await saveCheckpoint(organizationId, last, start.generation);
  const result = verifier.result(head ? { seq: head.seq, hash: head.hash } : null);
  if (full && result.firstBrokenSeq !== null) await distrustCheckpoint(organizationId);
  return { ...result, verified: result.verified + (start.seq - retention.seq), rehashed, total: until - retention.seq };
}

/** `verifyChainInDetail` as the API answers it: `{verified, firstBrokenSeq}`. */
export async function verifyAuditChain(
  organizationId: string,
  options: VerifyOptions = {},
): Promise<ChainVerification> {
  const { verified, firstBrokenSeq } = await verifyChainInDetail(organizationId, options);
  return { verified, firstBrokenSeq };
}
