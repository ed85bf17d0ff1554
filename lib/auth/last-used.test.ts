import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, getDb } from '../db/client';
import * as t from '../db/schema';
import { insertDemoKey, openDemoDatabase } from '../../server/testing/test-database';
import { flushApiKeyUses, recordApiKeyUse } from './last-used';

// Against a real embedded database: the buffer, the once-a-minute rule and the flush of a key used once.
const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-last-used-'));
let keyId = '';

async function lastUsed(): Promise<Date | null> {
  const db = await getDb();
  return (await db.select({ at: t.apiKeys.lastUsedAt }).from(t.apiKeys).where(eq(t.apiKeys.id, keyId)))[0].at;
}

beforeAll(async () => {
  process.env.DATA_DIR = dir;
  delete process.env.DATABASE_URL;
  await openDemoDatabase();
  keyId = (await insertDemoKey('unit')).id;
});

afterAll(async () => {
  await closeDb();
  rmSync(dir, { recursive: true, force: true });
});

describe('lastUsedAt', () => {
  it('is not written on the request path, then written by the flush', async () => {
    const at = new Date('2030-01-01T10:00:00.000Z');
    recordApiKeyUse(keyId, at);
    expect(await lastUsed()).toBeNull();
    await flushApiKeyUses();
    expect((await lastUsed())?.toISOString()).toBe(at.toISOString());
  });

  it('records at most once a minute per key', async () => {
    recordApiKeyUse(keyId, new Date('2030-01-01T10:00:30.000Z'));
    await flushApiKeyUses();
    expect((await lastUsed())?.toISOString()).toBe('2030-01-01T10:00:00.000Z');
    recordApiKeyUse(keyId, new Date('2030-01-01T10:01:00.000Z'));
    await flushApiKeyUses();
    expect((await lastUsed())?.toISOString()).toBe('2030-01-01T10:01:00.000Z');
  });

  it('never moves the date backwards', async () => {
    recordApiKeyUse(keyId, new Date('2030-01-01T11:00:00.000Z'));
    await flushApiKeyUses();
    recordApiKeyUse(keyId, new Date('2029-01-01T00:00:00.000Z'));
    await flushApiKeyUses();
    expect((await lastUsed())?.toISOString()).toBe('2030-01-01T11:00:00.000Z');
  });

  it('counts every request per UTC day, flushed by adding to the stored count', async () => {
    const db = await getDb();
    const counts = async () =>
      (await db.select().from(t.apiKeyUsage).where(eq(t.apiKeyUsage.keyId, keyId)))
        .map((r) => `${r.day}=${r.requests}`)
        .sort();
    const before = await counts();
    for (let i = 0; i < 3; i++) recordApiKeyUse(keyId, new Date('2030-02-01T23:59:59.000Z'));
    recordApiKeyUse(keyId, new Date('2030-02-02T00:00:00.000Z'));
    expect(await counts()).toEqual(before);
    await flushApiKeyUses();
    expect(await counts()).toEqual([...before, '2030-02-01=3', '2030-02-02=1'].sort());
    recordApiKeyUse(keyId, new Date('2030-02-01T12:00:00.000Z'));
    await flushApiKeyUses();
    expect(await counts()).toContain('2030-02-01=4');
  });
});
