import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { isDatabaseUnavailable, isUniqueViolation } from './errors';
import { analyzeChangedTables, vacuumDeadTables } from './analyze';
import { longStatementsBetween } from './long-statements';
import { PgliteThread } from './pglite-thread';
import { inBackground } from './priority';

// The embedded database in its own thread: the client drizzle sees must behave as PGlite's own did.
const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-pglite-thread-'));
let thread: PgliteThread;
const exits: Error[] = [];

beforeAll(async () => {
  thread = new PgliteThread(path.join(dir, 'db'), (err) => exits.push(err));
  await thread.ready;
  await thread.exec('create table t (id int primary key, at timestamptz not null, note text)');
}, 60_000);
afterAll(async () => {
  await thread.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What a backend abort does to a thread: its worker ends (the worker is private to the client). */
const abortBackend = (stopping: PgliteThread) =>
  (stopping as unknown as { worker: { terminate: () => Promise<number> } }).worker.terminate();

const count = async () => (await thread.query('select count(*)::int as n from t')).rows[0] as { n: number };

describe('the embedded database in its own thread', () => {
  it('runs statements with their values and returns rows, fields and the count', async () => {
    const at = new Date('2026-01-02T03:04:05.678Z');
    const inserted = await thread.query('insert into t values ($1, $2, $3), ($4, $2, null)', [1, at, 'a', 2]);
    expect(inserted.affectedRows).toBe(2);
    const { rows, fields } = await thread.query('select id, at, note from t order by id');
    expect(rows).toEqual([
      { id: 1, at, note: 'a' },
      { id: 2, at, note: null },
    ]);
    expect(fields.map((f) => f.name)).toEqual(['id', 'at', 'note']);
  });

  it("applies the caller's parsers to the columns of the types they name, in both row modes", async () => {
    // drizzle keeps timestamps as PostgreSQL's text; the parser runs here, not in the worker.
    const parsers = { 1184: (text: string) => `parsed ${text}` };
    const objects = await thread.query('select at, id from t where id = 1', [], { parsers });
    expect(objects.rows).toEqual([{ at: 'parsed 2026-01-02 03:04:05.678+00', id: 1 }]);
    const arrays = await thread.query('select id, at from t where id = 1', [], { rowMode: 'array', parsers });
    expect(arrays.rows).toEqual([[1, 'parsed 2026-01-02 03:04:05.678+00']]);
    const named = await thread.named('select at from t where id = $1', [1], 'thread_test_at', { parsers });
    expect(named.rows).toEqual([{ at: 'parsed 2026-01-02 03:04:05.678+00' }]);
  });

  it("keeps PostgreSQL's error fields, so a unique violation is still recognized", async () => {
    const err = await thread.query('insert into t values (1, now(), null)').catch((e: unknown) => e);
    expect(isUniqueViolation(err)).toBe(true);
    expect(err).toMatchObject({ code: '23505', constraint: 't_pkey', table: 't' });
    expect(err).not.toHaveProperty('params');
  });

  it('commits a transaction whole, and rolls it back whole when its function throws', async () => {
    const before = await count();
    await thread.transaction(async (tx) => {
      await tx.query('insert into t values (10, now(), $1)', ['kept']);
      await tx.query('insert into t values (11, now(), $1)', ['kept']);
    });
    expect(await count()).toEqual({ n: before.n + 2 });
    const refused = thread.transaction(async (tx) => {
      await tx.query('insert into t values (12, now(), null)');
      throw new Error('refused');
    });
    await expect(refused).rejects.toThrow('refused');
    // A failed statement inside the transaction fails it whole too.
    const failed = thread.transaction(async (tx) => {
      await tx.query('insert into t values (13, now(), null)');
      await tx.query('insert into t values (1, now(), null)');
    });
    await expect(failed).rejects.toMatchObject({ code: '23505' });
    expect(await count()).toEqual({ n: before.n + 2 });
  });

  it('a statement outside waits for an open transaction, as on one thread', async () => {
    const order: string[] = [];
    let inside!: () => void;
    const entered = new Promise<void>((resolve) => (inside = resolve));
    const tx = thread.transaction(async (t) => {
      await t.query('update t set note = $1 where id = 10', ['in transaction']);
      inside();
      await new Promise((resolve) => setTimeout(resolve, 50));
      order.push('commit');
    });
    await entered;
    const read = thread.query('select note from t where id = 10').then((r) => {
      order.push('read');
      return r.rows[0];
    });
    await tx;
    expect(await read).toEqual({ note: 'in transaction' });
    expect(order).toEqual(['commit', 'read']);
  });

  it('the event loop keeps moving while a statement runs', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    await thread.query('select pg_sleep(0.5)');
    clearInterval(timer);
    // On the server's own thread the backend would hold the loop for the whole half second: no tick at all.
    expect(ticks).toBeGreaterThan(10);
  });
});

describe('a thread that stops without being closed', () => {
  it('fails the statements in flight as unavailable, and says so once', async () => {
    const other = new PgliteThread(path.join(dir, 'aborting'), (err) => exits.push(err));
    await other.ready;
    const inFlight = other.query('select pg_sleep(0.3)');
    await abortBackend(other);
    const err = await inFlight.catch((e: unknown) => e);
    expect(isDatabaseUnavailable(err)).toBe(true);
    expect(exits).toHaveLength(1);
    expect(isDatabaseUnavailable(exits[0])).toBe(true);
    await expect(other.query('select 1')).rejects.toSatisfy(isDatabaseUnavailable);
    // It makes a fresh embedded database first (initdb in WASM): seconds alone, past 30 on a loaded 2-core machine.
  }, 120_000);
});

describe('periodic tasks (the upkeep)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A thread with a task every second that counts its runs, failing its second; failures go to `errors`. */
  async function counting(name: string) {
    const periodic = new PgliteThread(path.join(dir, name), () => {});
    await periodic.ready;
    const counted = { runs: 0, errors: [] as unknown[] };
    periodic.every(
      1_000,
      async () => {
        counted.runs++;
        if (counted.runs === 2) throw new Error('second run failed');
        await periodic.query('select 1');
      },
      (err) => counted.errors.push(err),
    );
    return { periodic, counted };
  }

  it('runs a task on time whatever the one before did, and ends it with the thread that stopped', async () => {
    const { periodic, counted } = await counting('periodic-stops');
    await vi.advanceTimersByTimeAsync(3_000);
    expect(counted.runs).toBe(3);
    expect(counted.errors).toEqual([new Error('second run failed')]);
    await abortBackend(periodic);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(counted.runs).toBe(3);
    // Each makes a fresh embedded database (initdb in WASM), as above.
  }, 120_000);

  it('ends a task with the thread that is closed, and takes none once it is', async () => {
    const { periodic, counted } = await counting('periodic-closes');
    await vi.advanceTimersByTimeAsync(1_000);
    await periodic.close();
    expect(vi.getTimerCount()).toBe(0);
    periodic.every(
      1_000,
      async () => void counted.runs++,
      () => {},
    );
    await vi.advanceTimersByTimeAsync(5_000);
    expect(counted.runs).toBe(1);
  }, 120_000);
});

describe('statements of requests, in the background, and the upkeep', () => {
  it('lets requests go first: a background statement waits until no request statement is in flight', async () => {
    const order: string[] = [];
    const run = (name: string, text: string) => thread.query(text).then(() => void order.push(name));
    const first = run('request 1', 'select pg_sleep(0.05)');
    const background = inBackground(() => run('background', 'select 1'));
    const second = run('request 2', 'select 2');
    await Promise.all([first, background, second]);
    expect(order).toEqual(['request 1', 'request 2', 'background']);
    // A background transaction waits to begin, then its statements go in it without waiting (it holds the backend).
    const [, inTransaction] = await Promise.all([
      thread.query('select pg_sleep(0.03)'),
      inBackground(() => thread.transaction(async (tx) => (await tx.query('select 7 as n')).rows)),
      thread.query('select 3'),
    ]);
    expect(inTransaction).toEqual([{ n: 7 }]);
  });

  it('notes the statements that held the backend, for a slow request to name', async () => {
    const from = performance.now();
    await thread.query('select pg_sleep(0.03)');
    const noted = longStatementsBetween(from, performance.now());
    expect(noted.map((s) => s.statement)).toEqual(['select pg_sleep(0.03)']);
    expect(noted[0].ms).toBeGreaterThanOrEqual(25);
  });

  it('analyzes, one table at a time, only the tables whose size moved since their last ANALYZE', async () => {
    await thread.exec('create table grows (n int); create table still (n int); insert into still values (1)');
    await analyzeChangedTables(thread);
    expect(await analyzeChangedTables(thread)).toEqual([]);
    await thread.exec('insert into grows select generate_series(1, 5000)');
    expect(await analyzeChangedTables(thread)).toEqual(['public.grows']);
    const { rows } = await thread.query("select reltuples::int as n from pg_class where relname = 'grows'");
    expect(rows).toEqual([{ n: 5000 }]);
    // Past 3,000 rows, from a sample (statistics target 10: 10 histogram bounds and fewer, where 100 gives 100).
    await thread.exec('insert into grows select generate_series(5001, 20000)');
    expect(await analyzeChangedTables(thread)).toEqual(['public.grows']);
    const histogram = await thread.query(
      "select array_length(histogram_bounds::text::int[], 1) as n from pg_stats where tablename = 'grows'",
    );
    expect((histogram.rows[0] as { n: number }).n).toBeLessThanOrEqual(11);
  });

  it('samples a table that passed 3,000 rows since its last ANALYZE, however few it held then', async () => {
    await thread.exec(`create table burst (n int); insert into burst select generate_series(1, 100); analyze burst`);
    await thread.exec('insert into burst select generate_series(101, 30000)');
    expect(await analyzeChangedTables(thread)).toContain('public.burst');
    const histogram = await thread.query(
      "select array_length(histogram_bounds::text::int[], 1) as n from pg_stats where tablename = 'burst'",
    );
    // Analyzed whole (statistics target 100) it would have 101 bounds.
    expect((histogram.rows[0] as { n: number }).n).toBeLessThanOrEqual(11);
  });

  it('past 3,000 rows, analyzes again only the columns an index reads; the others keep their statistics', async () => {
    await thread.exec(`create table wide (k int, e int, p int, other int);
      create index on wide (k); create index on wide ((e + 1)) where p > 0`);
    await thread.exec('insert into wide select n, n, n, 7 from generate_series(1, 4000) n');
    expect(await analyzeChangedTables(thread)).toEqual(['public.wide']);
    await thread.exec('insert into wide select n, n, n, 8 from generate_series(4001, 20000) n');
    expect(await analyzeChangedTables(thread)).toEqual(['public.wide']);
    const { rows } = await thread.query(
      "select attname as column, most_common_vals::text as common from pg_stats where tablename = 'wide' order by attname",
    );
    // `other` is still all 7s, as its statistics were taken at 4,000 rows; the indexed ones saw 20,000.
    expect(rows.find((r) => (r as { column: string }).column === 'other')).toEqual({ column: 'other', common: '{7}' });
    const maxima = await thread.query(
      "select attname as column, histogram_bounds::text::int[] as bounds from pg_stats where tablename = 'wide' and attname <> 'other' order by attname",
    );
    for (const row of maxima.rows as { column: string; bounds: number[] }[])
      expect(Math.max(...row.bounds), row.column).toBeGreaterThan(4000);
    expect((maxima.rows as { column: string }[]).map((r) => r.column)).toEqual(['e', 'k', 'p']);
  });

  it("vacuums, one table at a time, the tables whose dead row versions passed autovacuum's threshold", async () => {
    await thread.exec(`create table churn (id int primary key, note text); create index on churn (note);
      create table calm (id int primary key, note text);
      insert into churn select n, 'a' from generate_series(1, 1000) n;
      insert into calm select n, 'a' from generate_series(1, 1000) n; analyze churn; analyze calm`);
    await vacuumDeadTables(thread); // what the tests before left behind
    // The threshold of a table of 1,000 rows: 50 + 200 dead row versions.
    await thread.exec(`update calm set note = 'b' where id <= 240; update churn set note = 'b' where id <= 260`);
    expect(await vacuumDeadTables(thread)).toEqual(['public.churn']);
    expect(await vacuumDeadTables(thread)).toEqual([]);
    await thread.query('select pg_stat_force_next_flush()');
    const { rows } = await thread.query(
      `select relname as table, n_dead_tup::int as dead, last_vacuum is not null as vacuumed
       from pg_stat_user_tables where relname in ('churn', 'calm') order by relname`,
    );
    expect(rows).toEqual([
      { table: 'calm', dead: 240, vacuumed: false },
      { table: 'churn', dead: 0, vacuumed: true },
    ]);
  });
});
