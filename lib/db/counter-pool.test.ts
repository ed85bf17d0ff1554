import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { counterStore, Limiter } from '../http/rate-limit';
import { getCounterPool, getPgPool } from './client';
import { scratchPostgres } from '../../server/testing/test-database';

const { reachable, admin, database, use } = await scratchPostgres('counters');

describe.skipIf(!reachable)('the counter pool (PostgreSQL)', () => {
  use();

  const setting = async (pool: pg.Pool | null) =>
    (await pool!.query<{ synchronous_commit: string }>('show synchronous_commit')).rows[0].synchronous_commit;

  it('commits counters without waiting for the disk, each in its own transaction, and everything else durably', async () => {
    const store = counterStore((await getCounterPool())!);
    const { rows } = await store.query({
      text: `insert into rate_limits values ($1, 1, null) on conflict (key) do update set points = 2 returning points, expire`,
      values: ['unit-counters:async'],
    });
    expect(rows).toEqual([{ points: 1, expire: null, synchronous_commit: 'off' }]);
    // A setting of the statement's transaction, which no session keeps (a transaction pooler hands sessions on).
    expect(await setting(await getCounterPool())).toBe('on');
    expect(await setting(await getPgPool())).toBe('on');
  });

  it('is where the rate limiter counts, shared with every other session as soon as it answers', async () => {
    const limiter = new Limiter(
      'unit-counters',
      () => 2,
      () => 60,
    );
    expect(await limiter.consume('k')).toBeNull();
    expect(await limiter.consume('k')).toBeNull();
    expect(await limiter.consume('k')).toBeGreaterThanOrEqual(1);
    const { rows } = await (await getPgPool())!.query<{ points: number }>(
      `select points from rate_limits where key = 'unit-counters:k'`,
    );
    // The refused third call was answered from memory (inMemoryBlockOnConsumed), without a round trip.
    expect(rows).toEqual([{ points: 2 }]);
    // Each session's last statement: the counter's upsert ran on a counter session, never on a durable one.
    const { rows: sessions } = await admin.query<{ name: string; query: string }>(
      `select application_name as name, query from pg_stat_activity where datname = $1`,
      [database],
    );
    const counted = (name: string) =>
      sessions.some((s) => s.name === name && s.query.includes('INSERT INTO "rate_limits"'));
    expect(counted('svc-counters')).toBe(true);
    expect(counted('svc')).toBe(false);
  });
});
