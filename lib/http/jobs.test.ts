import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, lt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, getDb, watchStatements } from '../db/client';
import { deleteInBatches } from '../db/batched-delete';
import { purgeRequestRecords } from './jobs';
import * as t from '../db/schema';

const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-housekeeping-'));
// The embedded database is opened and migrated here, within the hooks' time: on a loaded machine that has taken
// more than a test's 30 s, and a test that timed out kept purging while the next one counted its deletes.
beforeAll(async () => {
  process.env.DATA_DIR = dir;
  process.env.SEED_DEMO = '0';
  delete process.env.DATABASE_URL;
  await getDb();
});
afterAll(async () => {
  await closeDb();
  rmSync(dir, { recursive: true, force: true });
  delete process.env.SEED_DEMO;
});

describe('housekeeping', () => {
  it('deletes idempotency records past retention and stale rate-limit rows, and keeps the live ones', async () => {
    const db = await getDb();
    const [org] = await db.insert(t.organizations).values({ name: 'Housekeeping' }).returning();
    const now = new Date();
    const record = (key: string, expiresAt: Date) => ({
      organizationId: org.id,
      principal: 'user:x',
      method: 'PATCH',
      path: '/v1/x',
      key,
      fingerprint: 'f',
      state: 'done' as const,
      expiresAt,
    });
    await db
      .insert(t.idempotencyRecords)
      .values([record('old', new Date(now.getTime() - 1000)), record('live', new Date(now.getTime() + 60_000))]);
    await db.insert(t.rateLimits).values([
      { key: 'stale', points: 3, expire: now.getTime() - 2 * 3_600_000 },
      { key: 'recent', points: 3, expire: now.getTime() - 60_000 },
      { key: 'live', points: 3, expire: now.getTime() + 60_000 },
    ]);
    await purgeRequestRecords(now);
    expect(
      (await db.select().from(t.idempotencyRecords).where(eq(t.idempotencyRecords.organizationId, org.id))).map(
        (r) => r.key,
      ),
    ).toEqual(['live']);
    expect((await db.select().from(t.rateLimits)).map((r) => r.key).sort()).toEqual(['live', 'recent']);
  });

  it('deletes in batches, each its own statement, until none is left, and counts what went', async () => {
    const db = await getDb();
    const now = Date.now();
    const stale = Array.from({ length: 2_345 }, (_, i) => ({ key: `batch ${i}`, points: 1, expire: now - 7_200_000 }));
    await db.insert(t.rateLimits).values([...stale, { key: 'batch live', points: 1, expire: now + 60_000 }]);
    const statements: string[] = [];
    const stop = watchStatements((text) => /^\s*delete from "rate_limits"/.test(text) && statements.push(text));
    const deleted = await deleteInBatches(t.rateLimits, lt(t.rateLimits.expire, now - 3_600_000), 1_000);
    stop();
    expect(deleted).toBe(2_345);
    expect(statements).toHaveLength(3);
    expect((await db.select().from(t.rateLimits)).map((r) => r.key)).toContain('batch live');
    expect((await db.select().from(t.rateLimits)).filter((r) => r.key.startsWith('batch ')).length).toBe(1);
  });
});
