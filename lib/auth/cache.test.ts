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

  it('load a missing key once for all the requests that miss it together', async () => {
    const cache = authCache<number>();
    let loads = 0;
    const load = async () => {
      loads++;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return loads;
    };
    const values = await Promise.all(Array.from({ length: 16 }, () => cache.through('k', load)));
    expect(loads).toBe(1);
    expect(new Set(values)).toEqual(new Set([1]));
  });

  it('never let a request after an invalidation join a load that started before it', async () => {
    const cache = authCache<string>();
    let release!: () => void;
    const before = cache.through('k', () => new Promise<string>((resolve) => (release = () => resolve('before'))));
    invalidateAuthCaches();
    const after = cache.through('k', async () => 'after');
    release();
    expect(await before).toBe('before');
    expect(await after).toBe('after');
  });

  it('reload a key in use before it expires, answering from it meanwhile, so it never misses', async () => {
    const cache = authCache<string>();
    let version = 0;
    const load = async () => `v${++version}`;
    expect(await cache.through('k', load)).toBe('v1');
    // Past half of AUTH_CACHE_TTL_MS (1 s here): the request still gets v1, and starts the reload.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await cache.through('k', load)).toBe('v1');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(version).toBe(2);
    // Past the first load's whole life: served from the reload, with no load of its own.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await cache.through('k', async () => 'missed')).toBe('v2');
  });
});
