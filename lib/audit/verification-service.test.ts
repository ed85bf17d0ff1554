import { and, eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { bulkAppendAuditEvents } from '../../server/demo/bulk-seed';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { newTestProject, onBothDatabases } from '../../server/testing/test-database';
import { getAuditVerification, releaseAuditVerifications, startAuditVerification } from './verification-service';
import { verifyAuditChain } from './verify';

async function chainOf(count: number) {
  const { scope } = await newTestProject('Verification job');
  await bulkAppendAuditEvents(await getDb(), scope.organizationId, count);
  return scope.organizationId;
}

/** Polls the stored job, as another instance would, until it is no longer running. */
async function finished(organizationId: string, id: string) {
  for (let i = 0; i < 600; i++) {
    const job = await getAuditVerification(organizationId, id);
    if (job.state !== 'running') return job;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('The verification did not finish.');
}

function jobSuite() {
  it('walks the whole chain in the background and stores its result', async () => {
    const org = await chainOf(2_500);
    const started = await startAuditVerification(org);
    expect(started).toMatchObject({ state: 'running', total: 2_500, firstBrokenSeq: null, finishedAt: null });
    // While it runs, starting again answers the same job.
    expect((await startAuditVerification(org)).id).toBe(started.id);
    expect(await finished(org, started.id)).toMatchObject({
      state: 'succeeded',
      verified: 2_500,
      total: 2_500,
      firstBrokenSeq: null,
      error: null,
      finishedAt: expect.any(String),
    });
    expect((await getAuditVerification(org, 'latest')).id).toBe(started.id);
  });

  it('finds a row changed with the triggers disabled, which the quick verification trusts', async () => {
    const org = await chainOf(2_500);
    expect(await verifyAuditChain(org)).toEqual({ verified: 2_500, firstBrokenSeq: null });
    const db = await getDb();
    const where = and(eq(t.auditEvents.organizationId, org), eq(t.auditEvents.seq, 1_700));
    await db.transaction(async (tx) => {
      await tx.execute(sql`alter table audit_events disable trigger all`);
      await tx.update(t.auditEvents).set({ reason: 'nothing to see' }).where(where);
      await tx.execute(sql`alter table audit_events enable trigger all`);
    });
    expect(await verifyAuditChain(org)).toEqual({ verified: 2_500, firstBrokenSeq: null });
    const job = await startAuditVerification(org);
    expect(await finished(org, job.id)).toMatchObject({ state: 'succeeded', verified: 1_699, firstBrokenSeq: 1_700 });
    // Having found it, the job leaves no verified prefix behind: the quick verification reports it too.
    expect(await verifyAuditChain(org)).toEqual({ verified: 1_699, firstBrokenSeq: 1_700 });
  });

  it('a running job whose lease ran out is reported failed, and a new one can start', async () => {
    const org = await chainOf(10);
    const db = await getDb();
    const [dead] = await db
      .insert(t.auditVerifications)
      .values({ organizationId: org, state: 'running', total: 10, leaseUntil: new Date(Date.now() - 1_000) })
      .returning();
    expect(await getAuditVerification(org, dead.id)).toMatchObject({
      state: 'failed',
      error: 'The instance running it stopped before it finished.',
      finishedAt: expect.any(String),
    });
    const fresh = await startAuditVerification(org);
    expect(fresh.id).not.toBe(dead.id);
    expect(await finished(org, fresh.id)).toMatchObject({ state: 'succeeded', verified: 10 });
    expect(await getAuditVerification(org, dead.id)).toMatchObject({ state: 'failed' });
  });

  it('a job released at shutdown is failed at once, and a new one starts without waiting for its lease', async () => {
    const org = await chainOf(2_500);
    const started = await startAuditVerification(org);
    expect(await releaseAuditVerifications()).toBe(1);
    expect(await getAuditVerification(org, started.id)).toMatchObject({
      state: 'failed',
      error: 'The instance running it stopped before it finished.',
      finishedAt: expect.any(String),
    });
    const fresh = await startAuditVerification(org);
    expect(fresh.id).not.toBe(started.id);
    expect(await finished(org, fresh.id)).toMatchObject({ state: 'succeeded', verified: 2_500 });
    // The released walk, had it gone on, writes nothing over its ending.
    expect(await getAuditVerification(org, started.id)).toMatchObject({ state: 'failed' });
  });

  it('another organization’s job, or none, is not found', async () => {
    const org = await chainOf(5);
    const other = await chainOf(5);
    const job = await startAuditVerification(org);
    await finished(org, job.id);
    await expect(getAuditVerification(other, job.id)).rejects.toMatchObject({ code: 'not_found' });
    await expect(getAuditVerification(other, 'latest')).rejects.toMatchObject({ code: 'not_found' });
  });
}

await onBothDatabases('audit re-verification jobs', 'audit-verification-job', jobSuite);
