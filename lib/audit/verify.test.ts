import { and, eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { bulkAppendAuditEvents } from '../../server/demo/bulk-seed';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { newTestProject, onBothDatabases } from '../../server/testing/test-database';
import { pruneAuditEvents } from './retention';
import { verifyAuditChain, verifyChainInDetail } from './verify';

const EVENTS = 2_500;

async function chainOf(count: number) {
  const { scope } = await newTestProject('Verify');
  await bulkAppendAuditEvents(await getDb(), scope.organizationId, count);
  return scope.organizationId;
}

/**
 * Changes one stored event as someone with database access would, and returns how to put it back. With
 * `triggers: false` the change is made with the table's triggers disabled (in its own transaction), as a
 * tamperer who owns the table could: the verified prefix is then not reset.
 */
async function tamper(
  organizationId: string,
  seq: number,
  column: 'reason' | 'hash' = 'reason',
  { triggers = true } = {},
) {
  const db = await getDb();
  const where = and(eq(t.auditEvents.organizationId, organizationId), eq(t.auditEvents.seq, seq));
  const [row] = await db.select().from(t.auditEvents).where(where);
  const change = (set: Partial<typeof row>) =>
    db.transaction(async (tx) => {
      if (!triggers) await tx.execute(sql`alter table audit_events disable trigger user`);
      await tx.update(t.auditEvents).set(set).where(where);
      if (!triggers) await tx.execute(sql`alter table audit_events enable trigger user`);
    });
  await change(column === 'reason' ? { reason: 'nothing to see' } : { hash: '0'.repeat(64) });
  return () => change({ reason: row.reason, hash: row.hash });
}

const checkpointOf = async (organizationId: string) =>
  (
    await (await getDb()).select().from(t.auditCheckpoints).where(eq(t.auditCheckpoints.organizationId, organizationId))
  )[0];

function verificationSuite() {
  it('a verification leaves a checkpoint, and the next re-hashes only the events written since', async () => {
    const org = await chainOf(EVENTS);
    expect(await verifyChainInDetail(org)).toMatchObject({ verified: EVENTS, firstBrokenSeq: null, rehashed: EVENTS });
    expect(await checkpointOf(org)).toMatchObject({ seq: EVENTS });
    expect(await verifyChainInDetail(org)).toMatchObject({ verified: EVENTS, firstBrokenSeq: null, rehashed: 0 });
    await bulkAppendAuditEvents(await getDb(), org, 30);
    expect(await verifyChainInDetail(org)).toMatchObject({ verified: EVENTS + 30, firstBrokenSeq: null, rehashed: 30 });
    expect(await checkpointOf(org)).toMatchObject({ seq: EVENTS + 30 });
  });

  it('a row changed inside the verified prefix through SQL resets it: the next quick verification finds it', async () => {
    const org = await chainOf(EVENTS);
    await verifyAuditChain(org);
    const restore = await tamper(org, 10);
    expect(await checkpointOf(org)).toMatchObject({ seq: 0 });
    expect(await verifyChainInDetail(org)).toMatchObject({ verified: 9, firstBrokenSeq: 10, rehashed: 10 });
    // Putting it back is a change too: the prefix starts over from the retention checkpoint.
    await restore();
    expect(await verifyChainInDetail(org)).toMatchObject({ verified: EVENTS, firstBrokenSeq: null, rehashed: EVENTS });
  });

  it('a deleted event inside the prefix is found; the deletes of retention keep the prefix', async () => {
    const org = await chainOf(300);
    await verifyAuditChain(org);
    // bulkAppendAuditEvents dated the events 300 s ago (seq 1) to 1 s ago (seq 300): this prunes about 150.
    await pruneAuditEvents(new Date(Date.now() - 150_000 + 86_400_000), 1);
    const [{ prunedSeq }] = await (
      await getDb()
    )
      .select()
      .from(t.auditChainHeads)
      .where(eq(t.auditChainHeads.organizationId, org));
    expect(prunedSeq).toBeGreaterThan(100);
    expect(prunedSeq).toBeLessThan(250);
    expect(await checkpointOf(org)).toMatchObject({ seq: 300, generation: 0 });
    expect(await verifyChainInDetail(org)).toMatchObject({
      verified: 300 - prunedSeq,
      firstBrokenSeq: null,
      rehashed: 0,
    });
    await (
      await getDb()
    )
      .delete(t.auditEvents)
      .where(and(eq(t.auditEvents.organizationId, org), eq(t.auditEvents.seq, 250)));
    const after = await verifyAuditChain(org);
    expect(after.firstBrokenSeq).toBe(250);
  });

  it('a change made while a verification reads cannot be hidden behind the checkpoint it saves', async () => {
    const org = await chainOf(EVENTS);
    let restore: (() => Promise<unknown>) | undefined;
    // The first batch (seqs 1..1000) has been read and hashed when the row changes.
    await verifyAuditChain(org, {
      onProgress: async () => {
        restore ??= await tamper(org, 500);
      },
    });
    expect(await verifyAuditChain(org)).toEqual({ verified: 499, firstBrokenSeq: 500 });
    await restore!();
  });

  it('with triggers disabled, only the full verification finds the change; then the quick one does too', async () => {
    const org = await chainOf(EVENTS);
    await verifyAuditChain(org);
    const restore = await tamper(org, 1200, 'reason', { triggers: false });
    expect(await verifyAuditChain(org)).toEqual({ verified: EVENTS, firstBrokenSeq: null });
    expect(await verifyAuditChain(org, { full: true })).toEqual({ verified: 1199, firstBrokenSeq: 1200 });
    expect(await verifyAuditChain(org)).toEqual({ verified: 1199, firstBrokenSeq: 1200 });
    await restore();
  });

  it('finds a tampered event written after the checkpoint, at any position', async () => {
    const org = await chainOf(300);
    await verifyAuditChain(org);
    const checkpoint = await checkpointOf(org);
    await bulkAppendAuditEvents(await getDb(), org, 200);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 301, max: 500 }), fc.constantFrom('reason', 'hash'), async (seq, column) => {
        // Each run starts from the checkpoint at 300 (a run that passes moves it on).
        await (
          await getDb()
        )
          .update(t.auditCheckpoints)
          .set(checkpoint)
          .where(eq(t.auditCheckpoints.organizationId, org));
        const restore = await tamper(org, seq, column as 'reason' | 'hash', { triggers: false });
        const result = await verifyAuditChain(org);
        await restore();
        expect(result).toEqual({ verified: seq - 1, firstBrokenSeq: seq });
      }),
      { numRuns: 15 },
    );
  });

  it('a checkpoint whose event lost its hash is not trusted: the verification starts over and finds it', async () => {
    const org = await chainOf(300);
    await verifyAuditChain(org);
    await tamper(org, 300, 'hash', { triggers: false });
    expect(await verifyAuditChain(org)).toEqual({ verified: 299, firstBrokenSeq: 300 });
  });

  it('the full verification finds a change anywhere; a verification never moves the checkpoint back', async () => {
    const org = await chainOf(400);
    await verifyAuditChain(org);
    for (const seq of [1, 200, 400]) {
      const restore = await tamper(org, seq, 'reason', { triggers: false });
      expect(await verifyAuditChain(org, { full: true })).toEqual({ verified: seq - 1, firstBrokenSeq: seq });
      // A full walk that found a break forgets the verified prefix.
      expect(await checkpointOf(org)).toMatchObject({ seq: 0 });
      await restore();
    }
    expect(await verifyAuditChain(org, { full: true })).toEqual({ verified: 400, firstBrokenSeq: null });
    await bulkAppendAuditEvents(await getDb(), org, 10);
    expect(await verifyAuditChain(org)).toEqual({ verified: 410, firstBrokenSeq: null });
    // A walk that reads less (here one that stops at a break at 201) does not move it back to 200.
    const restore = await tamper(org, 201, 'reason', { triggers: false });
    await (await getDb()).execute(sql`update audit_checkpoints set seq = seq where organization_id = ${org}`);
    expect(await checkpointOf(org)).toMatchObject({ seq: 410 });
    await restore();
  });

  it('reports its progress batch by batch, up to the head', async () => {
    const org = await chainOf(EVENTS);
    const seen: number[] = [];
    await verifyAuditChain(org, { full: true, onProgress: (checked) => void seen.push(checked) });
    expect(seen).toEqual([1000, 2000, EVENTS]);
  });

  // Last: it empties every organization's log in this file's database.
  it('a TRUNCATE of the events resets every verified prefix', async () => {
    const org = await chainOf(100);
    await verifyAuditChain(org);
    await (await getDb()).execute(sql`truncate audit_events`);
    expect(await checkpointOf(org)).toMatchObject({ seq: 0 });
    expect(await verifyAuditChain(org)).toEqual({ verified: 0, firstBrokenSeq: 1 });
  });
}

await onBothDatabases('audit verification', 'audit-verify', verificationSuite);
