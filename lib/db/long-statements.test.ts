import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { longStatementsBetween, noteLongStatement, timeConnectionWaits, timedClient } from './long-statements';

const url = `${process.env.PGURL_BASE ?? 'postgres://postgres@127.0.0.1:5432'}/postgres`;
const probe = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
const reachable = await probe.connect().then(
  () => probe.end().then(() => true),
  () => false,
);

/** What was noted while `run` ran, by statement. */
async function notedDuring(run: () => Promise<unknown>) {
  const from = performance.now();
  await run();
  return longStatementsBetween(from, performance.now());
}

describe('long statements', () => {
  it('keeps a statement by its first 80 characters, whitespace folded, and finds it by overlap', () => {
    noteLongStatement(`select   ${'x, '.repeat(40)}\n 1`, 20);
    const now = performance.now();
    const [noted] = longStatementsBetween(now - 5, now);
    expect(noted.statement).toBe(`select ${'x, '.repeat(40)}`.slice(0, 80));
    expect(noted.ms).toBe(20);
    expect(longStatementsBetween(now + 1, now + 2)).toEqual([]);
    noteLongStatement(`insert into t values ${'(1), '.repeat(1_000_000)}(1)`, 30);
    expect(longStatementsBetween(now - 5, performance.now()).at(-1)?.statement).toBe(
      `insert into t values ${'(1), '.repeat(15)}(1)`.slice(0, 80),
    );
  });
});

describe.skipIf(!reachable)('PostgreSQL statements, timed send to answer', () => {
  let pool: pg.Pool;
  beforeAll(async () => {
    pool = new pg.Pool({ Client: timedClient(pg.Client), connectionString: url, max: 2 });
    timeConnectionWaits(pool, 'test');
    await openBoth();
  });
  /** Both sessions open (opening one takes a while too, and counts as a wait; a failed statement closes its own). */
  const openBoth = async () => {
    const sessions = [await pool.connect(), await pool.connect()];
    for (const session of sessions) session.release();
  };
  afterAll(() => pool.end());

  // Each finds the statement it made long among what was noted: on a busy machine a quick one may take 10 ms too.
  const msOf = (noted: { statement: string; ms: number }[], statement: string) =>
    Math.max(0, ...noted.filter((s) => s.statement === statement).map((s) => s.ms));

  it('notes a long statement run through the pool', async () => {
    const noted = await notedDuring(() => Promise.all([pool.query('select pg_sleep(0.03)'), pool.query('select 1')]));
    expect(msOf(noted, 'select pg_sleep(0.03)')).toBeGreaterThanOrEqual(25);
  });

  it("counts the wait for another session's lock, in a transaction's promise-form statements too", async () => {
    const holder = await pool.connect();
    const waiter = await pool.connect();
    try {
      await holder.query('select pg_advisory_lock(727001)');
      const noted = await notedDuring(async () => {
        await waiter.query('begin');
        const waiting = waiter.query({ text: 'select pg_advisory_xact_lock(727001)', values: [] });
        await new Promise((resolve) => setTimeout(resolve, 40));
        await holder.query('select pg_advisory_unlock(727001)');
        await waiting;
        await waiter.query('commit');
      });
      expect(msOf(noted, 'select pg_advisory_xact_lock(727001)')).toBeGreaterThanOrEqual(35);
    } finally {
      holder.release();
      waiter.release();
    }
  });

  it('passes a failed statement on unchanged, timed all the same', async () => {
    const slow = await notedDuring(() =>
      expect(pool.query('select 1 / (pg_sleep(0.02) is null)::int')).rejects.toMatchObject({ code: '22012' }),
    );
    expect(msOf(slow, 'select 1 / (pg_sleep(0.02) is null)::int')).toBeGreaterThanOrEqual(15);
  });

  it("notes a caller's wait for a connection of a full pool, under the pool's name", async () => {
    await openBoth();
    const noted = await notedDuring(() =>
      Promise.all([pool.query('select pg_sleep(0.03)'), pool.query('select pg_sleep(0.03)'), pool.query('select 2')]),
    );
    expect(msOf(noted, '(waiting for a connection of pool test)')).toBeGreaterThanOrEqual(25);
  });
});
