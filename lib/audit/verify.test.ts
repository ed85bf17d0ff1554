import { and, eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bulkAppendAuditEvents } from '../db/bulk-seed';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { newTestProject, scratchPostgres, withEmptyEmbeddedDatabase } from '../db/test-database';
import { verifyAuditChain } from './verify';

const EVENTS = 2_500;

async function chainOf(count: number) {
  const { scope } = await newTestProject('Verify');
  await bulkAppendAuditEvents(await getDb(), scope.organizationId, count);
  return scope.organizationId;
}

/** Changes one stored event as someone with database access would, and returns how to put it back. */
async function tamper(organizationId: string, seq: number, column: 'reason' | 'hash' = 'reason') {
  const db = await getDb();
  const where = and(eq(t.auditEvents.organizationId, organizationId), eq(t.auditEvents.seq, seq));
  const [row] = await db.select().from(t.auditEvents).where(where);
  await db
    .update(t.auditEvents)
    .set(column === 'reason' ? { reason: 'nothing to see' } : { hash: '0'.repeat(64) })
    .where(where);
  return () => db.update(t.auditEvents).set({ reason: row.reason, hash: row.hash }).where(where);
}

const checkpointOf = async (organizationId: string) =>
  (
    await (await getDb()).select().from(t.auditCheckpoints).where(eq(t.auditCheckpoints.organizationId, organizationId))
  )[0];

function verificationSuite() {
  it('a verification leaves a checkpoint, and the next re-hashes only the events written since', async () => {
    const org = await chainOf(EVENTS);
    expect(await verifyAuditChain(org)).toEqual({ verified: EVENTS, firstBrokenSeq: null });
    expect(await checkpointOf(org)).toMatchObject({ seq: EVENTS });
    // A change inside the verified prefix is not re-hashed by the quick verification: only the full one finds it.
    const restore = await tamper(org, 10);
    expect(await verifyAuditChain(org)).toEqual({ verified: EVENTS, firstBrokenSeq: null });
    expect(await verifyAuditChain(org, { full: true })).toEqual({ verified: 9, firstBrokenSeq: 10 });
    await restore();
    await bulkAppendAuditEvents(await getDb(), org, 30);
    expect(await verifyAuditChain(org)).toEqual({ verified: EVENTS + 30, firstBrokenSeq: null });
    expect(await checkpointOf(org)).toMatchObject({ seq: EVENTS + 30 });
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
        const restore = await tamper(org, seq, column as 'reason' | 'hash');
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
    await tamper(org, 300, 'hash');
    expect(await verifyAuditChain(org)).toEqual({ verified: 299, firstBrokenSeq: 300 });
  });

  it('the full verification finds a change anywhere, and a checkpoint never moves back', async () => {
    const org = await chainOf(400);
    await verifyAuditChain(org);
    await (await getDb()).execute(sql`update audit_checkpoints set seq = seq where organization_id = ${org}`);
    for (const seq of [1, 200, 400]) {
      const restore = await tamper(org, seq);
      expect(await verifyAuditChain(org, { full: true })).toEqual({ verified: seq - 1, firstBrokenSeq: seq });
      await restore();
    }
    expect(await checkpointOf(org)).toMatchObject({ seq: 400 });
  });

  it('reports its progress batch by batch, up to the head', async () => {
    const org = await chainOf(EVENTS);
    const seen: number[] = [];
    await verifyAuditChain(org, { full: true, onProgress: (checked) => void seen.push(checked) });
    expect(seen).toEqual([1000, 2000, EVENTS]);
  });
}

describe('audit verification on the embedded database', () => {
  withEmptyEmbeddedDatabase('audit-verify');
  verificationSuite();
});

const postgres = await scratchPostgres('audit_verify');
describe.skipIf(!postgres.reachable)('audit verification on PostgreSQL', () => {
  postgres.use();
  verificationSuite();
});
