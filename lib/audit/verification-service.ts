import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { notFound } from '../errors';
import { auditVerificationsFinished } from '../observability/metrics';
import type { AuditVerification } from './schema';
import { verifyChainInDetail } from './verify';

/** A running job renews its lease with each progress write; one whose lease ran out has lost its instance. */
const LEASE_MS = 30_000;
/** Progress is written at most this often (a batch of 1,000 events takes a few milliseconds). */
const PROGRESS_EVERY_MS = 500;
const STALE = 'The instance running it stopped before it finished.';
const FAILED = 'The verification stopped on an error; start it again.';

type Row = typeof t.auditVerifications.$inferSelect;

/** The job as the API shows it; a running job past its lease is reported failed. */
function toVerification(row: Row, now = new Date()): AuditVerification {
  const stale = row.state === 'running' && row.leaseUntil < now;
  return {
    id: row.id,
    state: stale ? 'failed' : row.state,
    verified: row.verified,
    total: row.total,
    firstBrokenSeq: row.firstBrokenSeq,
    error: stale ? STALE : row.error,
    startedAt: row.startedAt.toISOString(),
    finishedAt: stale ? row.leaseUntil.toISOString() : (row.finishedAt?.toISOString() ?? null),
  };
}

const leaseFromNow = () => new Date(Date.now() + LEASE_MS);

/**
 * Starts a full re-verification of the organization's chain in this process, off the request path, unless one
 * is already running (then that one is returned). Its progress is stored, so any instance can report it.
 */
export async function startAuditVerification(organizationId: string): Promise<AuditVerification> {
  const db = await getDb();
  const now = new Date();
  // A job whose instance died ends as failed, so the one-running-job index lets a new one start.
  await db
    .update(t.auditVerifications)
    .set({ state: 'failed', error: STALE, finishedAt: sql`${t.auditVerifications.leaseUntil}` })
    .where(
      and(
        eq(t.auditVerifications.organizationId, organizationId),
        eq(t.auditVerifications.state, 'running'),
        lt(t.auditVerifications.leaseUntil, now),
      ),
    );
  const [head] = await db.select().from(t.auditChainHeads).where(eq(t.auditChainHeads.organizationId, organizationId));
  const [row] = await db
    .insert(t.auditVerifications)
    .values({
      organizationId,
      state: 'running',
      total: head ? head.seq - head.prunedSeq : 0,
      leaseUntil: leaseFromNow(),
    })
    .onConflictDoNothing()
    .returning();
  if (!row) return getAuditVerification(organizationId, 'latest');
  void runAuditVerification(row.id, organizationId);
  return toVerification(row);
}

/** Jobs this process runs: a shutdown ends them as failed at once instead of leaving them to their lease. */
const running = new Set<string>();

/** Walks the whole chain, writing progress (and renewing the lease) as it goes, then the result. */
async function runAuditVerification(id: string, organizationId: string): Promise<void> {
  running.add(id);
  try {
    await walk(id, organizationId);
  } finally {
    running.delete(id);
  }
}

async function walk(id: string, organizationId: string): Promise<void> {
  const db = await getDb();
  // A job a shutdown already ended keeps that ending.
  const byId = and(eq(t.auditVerifications.id, id), eq(t.auditVerifications.state, 'running'));
  let written = Date.now();
  try {
    const outcome = await verifyChainInDetail(organizationId, {
      full: true,
      onProgress: async (checked) => {
        if (!running.has(id)) throw new Error('Released at shutdown.');
        if (Date.now() - written < PROGRESS_EVERY_MS) return;
        written = Date.now();
        await db.update(t.auditVerifications).set({ verified: checked, leaseUntil: leaseFromNow() }).where(byId);
      },
    });
    await db
      .update(t.auditVerifications)
      .set({
        state: 'succeeded',
        verified: outcome.verified,
        total: outcome.total,
        firstBrokenSeq: outcome.firstBrokenSeq,
        error: null,
        finishedAt: new Date(),
      })
      .where(byId);
    auditVerificationsFinished.inc({ result: outcome.firstBrokenSeq === null ? 'intact' : 'broken' });
  } catch (err) {
    if (!running.has(id)) return; // released at shutdown, already recorded as failed
    console.error('Audit re-verification failed.', err);
    auditVerificationsFinished.inc({ result: 'failed' });
    await db
      .update(t.auditVerifications)
      .set({ state: 'failed', error: FAILED, finishedAt: new Date() })
      .where(byId)
      .catch(() => {});
  }
}

/** One job of the organization by id, or its newest with `latest`. */
export async function getAuditVerification(organizationId: string, id: string): Promise<AuditVerification> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(t.auditVerifications)
    .where(
      and(
        eq(t.auditVerifications.organizationId, organizationId),
        id === 'latest' ? undefined : eq(t.auditVerifications.id, id),
      ),
    )
    .orderBy(desc(t.auditVerifications.startedAt))
    .limit(1);
  if (!row) throw notFound('No such verification.');
  return toVerification(row);
}

/**
 * At shutdown: the jobs running here end as failed (the instance stopped) now rather than when their lease runs
 * out, so the organization can start another at once, on any instance. Returns how many were ended.
 */
export async function releaseAuditVerifications(): Promise<number> {
  const ids = [...running];
  running.clear();
  if (ids.length === 0) return 0;
  const db = await getDb();
  const now = new Date();
  await db
    .update(t.auditVerifications)
    .set({ state: 'failed', error: STALE, leaseUntil: now, finishedAt: now })
    .where(and(inArray(t.auditVerifications.id, ids), eq(t.auditVerifications.state, 'running')));
  return ids.length;
}
