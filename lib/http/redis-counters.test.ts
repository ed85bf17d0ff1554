import { eq, sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { insertDemoKey, scratchPostgres } from '../../server/testing/test-database';
import { admitCaller } from '../pipeline/authenticate';
import { type ApiError } from '../errors';
import { Limiter } from './rate-limit';
import { closeRedisCounters } from './redis-counters';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
const redisUp = await redis.connect().then(
  () => true,
  () => false,
);
const { reachable, use } = await scratchPostgres('redis');
const namespace = `unit-redis-${process.pid}-${Date.now()}-`;

/** Two limiters of one name stand for two instances: each has its own memory, the counters are shared. */
const instances = (name: string, points: number) =>
  [0, 1].map(
    () =>
      new Limiter(
        name,
        () => points,
        () => 60,
      ),
  );

describe.skipIf(!redisUp || !reachable)('the rate-limit counters in Redis (RATE_LIMIT_REDIS_URL)', () => {
  beforeAll(() => {
    process.env.RATE_LIMIT_REDIS_URL = REDIS_URL;
    process.env.RATE_LIMIT_NAMESPACE = namespace;
  });
  use({ seedDemo: true });
  afterAll(async () => {
    delete process.env.RATE_LIMIT_REDIS_URL;
    delete process.env.RATE_LIMIT_NAMESPACE;
    const keys = await redis.keys(`${namespace}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    await closeRedisCounters();
  });

  it('count every instance together, in Redis, and refuse past the limit from memory', async () => {
    const [a, b] = instances('unit-shared', 2);
    expect(await a.consume('k')).toBeNull();
    expect(await b.consume('k')).toBeNull();
    expect(await a.consume('k')).toBeGreaterThanOrEqual(1);
    expect(await b.consume('k')).toBeGreaterThanOrEqual(1);
    // The refusals were answered from each instance's memory (inMemoryBlockOnConsumed) once Redis said 3 > 2.
    expect(Number(await redis.get(`${namespace}unit-shared:k`))).toBeLessThanOrEqual(4);
    expect(await redis.pttl(`${namespace}unit-shared:k`)).toBeGreaterThan(0);
    expect(await a.consume('other')).toBeNull();
  });

  it('allow exactly the limit of a burst spread over both instances, however it is batched', async () => {
    const [a, b] = instances('unit-burst', 20);
    const verdicts = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? b : a).consume('k')));
    expect(verdicts.filter((v) => v === null)).toHaveLength(20);
    for (const wait of verdicts.filter((v) => v !== null)) expect(wait).toBeGreaterThanOrEqual(1);
  });

  it('refuse on the next request a key another instance revoked: the auth epoch is read on its own', async () => {
    const { secret, id } = await insertDemoKey('redis revocation');
    const request = () =>
      new NextRequest('http://127.0.0.1/v1/organizations', { headers: { authorization: `Bearer ${secret}` } });
    expect((await admitCaller(request())).retryAfter).toBeNull(); // cached here
    // Revoked as another instance would: the epoch bumped with it, nothing dropped from this process's caches.
    await (
      await getDb()
    ).transaction(async (tx) => {
      await tx.update(t.apiKeys).set({ revokedAt: new Date(), revokedReason: 'revoked' }).where(eq(t.apiKeys.id, id));
      await tx
        .update(t.authEpoch)
        .set({ epoch: sql`${t.authEpoch.epoch} + 1` })
        .where(eq(t.authEpoch.id, 1));
    });
    const outcomes = await Promise.allSettled(Array.from({ length: 4 }, () => admitCaller(request())));
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      expect(((outcome as PromiseRejectedResult).reason as ApiError).status).toBe(401);
    }
  });

  it('answer from memory while Redis is unreachable, never failing the request', async () => {
    process.env.RATE_LIMIT_REDIS_URL = 'redis://127.0.0.1:5299';
    try {
      const [a] = instances('unit-down', 2);
      expect(await a.consume('k')).toBeNull();
      expect(await a.consume('k')).toBeNull();
      expect(await a.consume('k')).toBeGreaterThanOrEqual(1);
    } finally {
      process.env.RATE_LIMIT_REDIS_URL = REDIS_URL;
    }
  });
});
