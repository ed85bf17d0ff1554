import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import { withEmptyEmbeddedDatabase } from '../../server/testing/test-database';
import * as t from '../db/schema';
import { recordAuditEvent, recordAuditEvents } from './record';
import { SYSTEM_ACTOR } from './source';
import type { AuditEventInput } from '../db/audit-types';
import { pruneAuditEvents } from './retention';
import { verifyAuditChain } from './verify';

withEmptyEmbeddedDatabase('audit');

const input = (organizationId: string, n: number): AuditEventInput => ({
  organizationId,
  action: 'subscription.updated',
  actor: SYSTEM_ACTOR,
  context: { requestId: `req_${n}`, ip: null, userAgent: 'agent\u0000with nul' },
  target: { type: 'subscription', id: 'sub', name: 'qsb_x' },
  changes: [{ field: 'target.url', from: `https://a.test/${n}`, to: `https://b.test/${n}` }],
});

async function newOrg(name: string) {
  const db = await getDb();
  const [org] = await db.insert(t.organizations).values({ name }).returning();
  return org.id;
}

describe('recordAuditEvent', () => {
  it('numbers concurrent writers 1..n per organization and leaves a chain that verifies', async () => {
    const db = await getDb();
    const [a, b] = [await newOrg('Audit A'), await newOrg('Audit B')];
    await Promise.all(
      Array.from({ length: 20 }, (_, n) => db.transaction((tx) => recordAuditEvents(tx, [input(a, n), input(b, n)]))),
    );
    for (const org of [a, b]) {
      const rows = await db.select().from(t.auditEvents).where(eq(t.auditEvents.organizationId, org));
      expect(rows.map((r) => r.seq).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(await verifyAuditChain(org)).toEqual({ verified: 20, firstBrokenSeq: null });
    }
  });

  it('hashes the event as stored: a Date in the changes is its ISO text in both, and the chain verifies', async () => {
    const db = await getDb();
    const org = await newOrg('Audit dates');
    const at = new Date('2030-01-02T03:04:05.678Z');
    await db.transaction((tx) =>
      recordAuditEvent(tx, { ...input(org, 1), changes: [{ field: 'expiresAt', from: null, to: at }] }),
    );
    const [row] = await db.select().from(t.auditEvents).where(eq(t.auditEvents.organizationId, org));
    expect(row.changes).toEqual([{ field: 'expiresAt', from: null, to: at.toISOString() }]);
    expect(await verifyAuditChain(org)).toEqual({ verified: 1, firstBrokenSeq: null });
  });

  it('writes nothing when the transaction rolls back', async () => {
    const db = await getDb();
    const org = await newOrg('Audit rollback');
    await expect(
      db.transaction(async (tx) => {
        await recordAuditEvent(tx, input(org, 1));
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await db.select().from(t.auditEvents).where(eq(t.auditEvents.organizationId, org))).toEqual([]);
    await db.transaction((tx) => recordAuditEvent(tx, input(org, 2)));
    const [row] = await db.select().from(t.auditEvents).where(eq(t.auditEvents.organizationId, org));
    expect(row.seq).toBe(1);
  });

  it('reports the seq of an event edited in the database', async () => {
    const db = await getDb();
    const org = await newOrg('Audit tamper');
    for (let n = 0; n < 4; n++) await db.transaction((tx) => recordAuditEvent(tx, input(org, n)));
    await db.execute(sql`update audit_events set reason = 'nothing to see' where organization_id = ${org} and seq = 3`);
    expect(await verifyAuditChain(org)).toEqual({ verified: 2, firstBrokenSeq: 3 });
    await db.delete(t.auditEvents).where(and(eq(t.auditEvents.organizationId, org), eq(t.auditEvents.seq, 3)));
    expect((await verifyAuditChain(org)).firstBrokenSeq).toBe(3);
  });

  it('prunes events past retention behind a checkpoint, and what remains still verifies', async () => {
    const db = await getDb();
    const org = await newOrg('Audit retention');
    const now = new Date('2031-06-01T00:00:00.000Z');
    const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
    for (const [n, days] of [500, 450, 401, 10, 1].entries())
      await db.transaction((tx) => recordAuditEvent(tx, input(org, n), daysAgo(days)));
    await pruneAuditEvents(now, 400);
    const left = await db.select().from(t.auditEvents).where(eq(t.auditEvents.organizationId, org));
    expect(left.map((r) => r.seq).sort()).toEqual([4, 5]);
    expect(await verifyAuditChain(org)).toEqual({ verified: 2, firstBrokenSeq: null });
    await db.transaction((tx) => recordAuditEvent(tx, input(org, 9), now));
    expect(await verifyAuditChain(org)).toEqual({ verified: 3, firstBrokenSeq: null });
    await pruneAuditEvents(now, 400);
    expect(await verifyAuditChain(org)).toEqual({ verified: 3, firstBrokenSeq: null });
  });
});
