import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, getDb } from '../db/client';
import * as t from '../db/schema';
import { insertDemoKey, openDemoDatabase } from '../../server/testing/test-database';
import { authCache, invalidateAuthCaches } from './cache';
import { principalForApiKey } from './service';

const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-cache-'));

beforeAll(async () => {
  process.env.DATA_DIR = dir;
  delete process.env.DATABASE_URL;
  await openDemoDatabase();
});
afterAll(async () => {
  await closeDb();
  rmSync(dir, { recursive: true, force: true });
});

const newKey = (expiresAt: Date | null = null) => insertDemoKey('cache test', expiresAt);

describe('authentication caches', () => {
  it('serve a verified key from memory, and never after an invalidation', async () => {
    const db = await getDb();
    const { secret, id } = await newKey();
    expect((await principalForApiKey(secret))?.apiKeyId).toBe(id);
    await db.update(t.apiKeys).set({ revokedAt: new Date(), revokedReason: 'revoked' }).where(eq(t.apiKeys.id, id));
    // Still cached until told: this is why every revocation path invalidates after it commits.
    expect(await principalForApiKey(secret)).not.toBeNull();
    invalidateAuthCaches();
    expect(await principalForApiKey(secret)).toBeNull();
  });

  it('check the expiry instant on every hit, so a cached key stops at its expiry', async () => {
    const { secret } = await newKey(new Date(Date.now() + 60_000));
    expect(await principalForApiKey(secret)).not.toBeNull();
    expect(await principalForApiKey(secret, new Date(Date.now() + 61_000))).toBeNull();
  });

  it('do not let a load that raced an invalidation repopulate the cache with what it read before', async () => {
    const cache = authCache<string>();
    let release!: () => void;
    const loading = cache.through('k', () => new Promise<string>((resolve) => (release = () => resolve('stale'))));
    invalidateAuthCaches();
    release();
    expect(await loading).toBe('stale');
    // Nothing was kept: the next read loads again, and that load is kept.
    expect(await cache.through('k', async () => 'fresh')).toBe('fresh');
    expect(await cache.through('k', async () => 'loaded again')).toBe('fresh');
  });
});
