import { eq, sql } from 'drizzle-orm';
import { NextRequest } from 'next/server';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { displayPrefix } from '../auth/api-key-format';
import { getCounterPool, getDb, getPgPool } from '../db/client';
import * as t from '../db/schema';
import { insertDemoKey, scratchPostgres } from '../../server/testing/test-database';
import { admitCaller } from './authenticate';
import { ApiError } from '../errors';

const { reachable, use } = await scratchPostgres('admit');

/** Counts the statements a pool runs while the spy is on. */
function spy(pool: pg.Pool) {
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  const texts: string[] = [];
  (pool as unknown as { query: typeof query }).query = (...args) => {
    const config = args[0] as string | { text: string };
    texts.push(typeof config === 'string' ? config : config.text);
    return query(...args);
  };
  return { texts, restore: () => ((pool as unknown as { query: typeof query }).query = query) };
}

const newKey = () => insertDemoKey('admit test');

const request = (secret: string) =>
  new NextRequest('http://127.0.0.1/v1/organizations', { headers: { authorization: `Bearer ${secret}` } });

/**
 * The key revoked as another instance would: the epoch bumped in the same transaction, and nothing cached here
 * dropped (a revocation through the services would also drop this process's caches).
 */
async function revokeElsewhere(id: string) {
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx.update(t.apiKeys).set({ revokedAt: new Date(), revokedReason: 'revoked' }).where(eq(t.apiKeys.id, id));
    await tx
      .update(t.authEpoch)
      .set({ epoch: sql`${t.authEpoch.epoch} + 1` })
      .where(eq(t.authEpoch.id, 1));
  });
}

describe.skipIf(!reachable)('admitCaller (PostgreSQL)', () => {
  use({ seedDemo: true });

  it('reads the auth epoch in the statement that takes the rate-limit point: one round trip in all', async () => {
    const { secret } = await newKey();
    await admitCaller(request(secret)); // fills the caches
    const counters = spy((await getCounterPool())!);
    const durable = spy((await getPgPool())!);
    try {
      const { principal, retryAfter } = await admitCaller(request(secret));
      expect(principal.apiKeyPrefix).toBe(displayPrefix(secret));
      expect(retryAfter).toBeNull();
      expect(durable.texts).toEqual([]);
      expect(counters.texts).toHaveLength(1);
      expect(counters.texts[0]).toMatch(/^with taken as \(INSERT INTO "rate_limits".*\(select epoch from auth_epoch/s);
    } finally {
      counters.restore();
      durable.restore();
    }
  });

  it('refuses a key that another instance revoked, for every request of a batch that read the new epoch', async () => {
    const { secret, id } = await newKey();
    await admitCaller(request(secret)); // cached here, as the other instance revokes it
    await revokeElsewhere(id);
    // Concurrent callers share one upsert and its epoch: each must notice that the caches moved under it,
    // not only the first to apply the epoch.
    const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => admitCaller(request(secret))));
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      const err = (outcome as PromiseRejectedResult).reason as ApiError;
      expect(err).toBeInstanceOf(ApiError);
      expect(err.status).toBe(401);
    }
  });

  it('still admits other keys after the epoch moved, from the database', async () => {
    const kept = await newKey();
    const { id } = await newKey();
    await admitCaller(request(kept.secret));
    await revokeElsewhere(id);
    const { principal } = await admitCaller(request(kept.secret));
    expect(principal.apiKeyPrefix).toBe(displayPrefix(kept.secret));
  });
});
