import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Limiter } from '../http/rate-limit';
import { closeDb, getCounterPool, getDb, getPgPool } from './client';

// This machine's PostgreSQL (as .ci/run uses it); a fresh database for this file, dropped after.
const base = process.env.PGURL_BASE ?? 'postgres://postgres@127.0.0.1:5432';
const database = `svc_unit_counters_${process.pid}`;
const admin = new pg.Client({ connectionString: `${base}/postgres`, connectionTimeoutMillis: 2000 });
const reachable = await admin.connect().then(
  () => true,
  () => false,
);

describe.skipIf(!reachable)('the counter pool (PostgreSQL)', () => {
  beforeAll(async () => {
    await admin.query(`create database ${database}`);
    process.env.DATABASE_URL = `${base}/${database}`;
    process.env.SEED_DEMO = '0';
    await getDb();
  }, 60_000);
  afterAll(async () => {
    await closeDb();
    delete process.env.DATABASE_URL;
    delete process.env.SEED_DEMO;
    // pg-pool's end() resolves once it has asked its sessions to end, not when they have: wait for them, so
    // the drop does not cut one off mid-goodbye (which the pool would log as an error).
    for (let i = 0; i < 50; i++) {
      const { rows } = await admin.query('select count(*)::int as n from pg_stat_activity where datname = $1', [
        database,
      ]);
      if (rows[0].n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
  });

  const setting = async (pool: pg.Pool | null) =>
    (await pool!.query<{ synchronous_commit: string }>('show synchronous_commit')).rows[0].synchronous_commit;

  it('commits counters without waiting for the disk, and everything else durably', async () => {
    expect(await setting(await getCounterPool())).toBe('off');
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
