import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, getDb } from '../db/client';
import { purgeRequestRecords } from './jobs';
import * as t from '../db/schema';

const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-housekeeping-'));
beforeAll(() => {
  process.env.DATA_DIR = dir;
  process.env.SEED_DEMO = '0';
  delete process.env.DATABASE_URL;
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
});
