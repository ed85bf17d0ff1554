import { and, asc, eq, gt } from 'drizzle-orm';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { chainVerifier, GENESIS_HASH, type ChainVerification, type HashedEvent } from './chain';
import { toAuditEvent } from './service';

const BATCH = 1_000;

type Row = typeof t.auditEvents.$inferSelect;

/** A stored row as the hash saw it. */
export function hashedEventOf(row: Row): HashedEvent & { hash: string } {
  return { ...toAuditEvent(row), organizationId: row.organizationId, hash: row.hash };
}

/** Walks the organization's chain from its retention checkpoint to its head, a batch at a time. */
export async function verifyAuditChain(organizationId: string): Promise<ChainVerification> {
  const db = await getDb();
  const [head] = await db.select().from(t.auditChainHeads).where(eq(t.auditChainHeads.organizationId, organizationId));
  const verifier = chainVerifier(
    head ? { seq: head.prunedSeq, hash: head.prunedHash } : { seq: 0, hash: GENESIS_HASH },
  );
  let after = head?.prunedSeq ?? 0;
  for (;;) {
    const rows = await db
      .select()
      .from(t.auditEvents)
      .where(and(eq(t.auditEvents.organizationId, organizationId), gt(t.auditEvents.seq, after)))
      .orderBy(asc(t.auditEvents.seq))
      .limit(BATCH);
    if (!verifier.check(rows.map(hashedEventOf)) || rows.length < BATCH) break;
    after = rows[rows.length - 1].seq;
  }
  return verifier.result(head ? { seq: head.seq, hash: head.hash } : null);
}
