import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { QueryOptions } from '@electric-sql/pglite';
import type { Pool } from 'pg';
import * as schema from './schema';
import { analyzeGrowingSmallTables, maintainEmbeddedDatabase } from './analyze';
import { withCommitHooks } from './commit-hooks';
import { assertDatabaseMayBeUp, guardPool, noteDatabaseFailed } from './breaker';
import { lockDataDir } from './data-dir-lock';
import { timeConnectionWaits, timedClient } from './long-statements';
import { PgliteThread, type ThreadClient } from './pglite-thread';
import { ensurePolicies } from './policies';
import { postgresUrls, sessionFreeClient, type PostgresUrls } from './pooler';
import { settings } from '../settings/settings';

export type DatabaseFigures = {
  kind: 'pglite' | 'postgres';
  pools: { name: string; total: number; idle: number; waiting: number }[];
  /** Embedded database: statements sent to its thread and not yet answered. */
  inFlight?: number;
};
import { assertBuildCanServe } from './schema-floor';

export type Db = NodePgDatabase<typeof schema>;
/** The transaction handle drizzle passes to `db.transaction(tx => …)`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

/** What runs a statement's text on the open database: PGlite's client or the PostgreSQL pool. */
type Raw = { query: (text: string, values: unknown[], name: string) => Promise<{ rows: unknown[] }> };
type Handle = {
  db: Db;
  kind: 'pglite' | 'postgres';
  close: () => Promise<void>;
  pool?: Pool;
  /** PostgreSQL: the pool for writes a crash may lose (rate-limit counters), see `getCounterPool`. */
  counterPool?: Pool;
  raw: Raw;
  /** PostgreSQL, connected directly: sessions that keep a generic plan per named statement (`runBlindStatement`). */
  blind?: Raw;
  /** Statement texts drizzle should run as named statements (PostgreSQL names them from `.prepare(name)`). */
  hot?: Set<string>;
  /** Embedded database: copies the data directory, consistent, into `into` (lib/backup). */
  snapshot?: (into: string) => Promise<{ heldMs: number }>;
  /** What /metrics reports of this database at a scrape. */
  figures: () => DatabaseFigures;
};

// Next bundles route handlers and instrumentation separately; the handle must be one per process.
const state = globalThis as unknown as { __svcDb?: Promise<Handle>; __svcDbOpen?: Handle };

/** What /metrics reports of the open database (lib/observability/metrics.ts), or null before it opens. */
export function databaseFigures(): DatabaseFigures | null {
  return state.__svcDbOpen?.figures() ?? null;
}

export function migrationsFolder(): string {
  return path.join(/* turbopackIgnore: true */ process.cwd(), 'drizzle');
}

export function dataDir(): string {
  return path.resolve(/* turbopackIgnore: true */ settings().DATA_DIR);
}

export { DataDirLockedError } from './data-dir-lock';
export { SchemaFloorError } from './schema-floor';

// How often the embedded database's tables are checked for an ANALYZE (lib/db/analyze.ts), and its small ones.
const ANALYZE_EVERY_MS = 60_000;
const SMALL_TABLES_EVERY_MS = 5_000;
// PostgreSQL's small tables, checked more often: the look runs beside requests there, never before them, and a
// subscription's drain, fast enough to fill its deliveries' first pages in a second, plans on them meanwhile.
const POSTGRES_SMALL_TABLES_EVERY_MS = 1_000;
// How long its ANALYZE waits for a table's lock before leaving the table to the session that holds it.
const POSTGRES_ANALYZE_LOCK_TIMEOUT_MS = 100;

type StatementWatcher = (text: string, params: unknown[]) => void;
const watchers = new Set<StatementWatcher>();
const statementLogger = { logQuery: (text: string, params: unknown[]) => watchers.forEach((w) => w(text, params)) };

/** Sees every statement drizzle sends until the returned function is called: tests EXPLAIN what a service ran. */
export function watchStatements(watcher: StatementWatcher): () => void {
  watchers.add(watcher);
  return () => watchers.delete(watcher);
}

async function openPglite(): Promise<Handle> {
  const [{ drizzle }, { migrate }] = await Promise.all([
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  const dir = dataDir();
  mkdirSync(dir, { recursive: true });
  const release = await lockDataDir(dir);
  // A backend that aborts takes its thread down: statements in flight fail as unavailable (503), and the
  // next request opens the database again.
  const opened: { handle?: Handle } = {};
  const thread = new PgliteThread(path.join(dir, 'pglite'), (err) => {
    console.error('The embedded database stopped; it opens again on the next request.', err);
    const current = state.__svcDb;
    void current?.then((h) => {
      if (h === opened.handle && state.__svcDb === current) {
        state.__svcDb = undefined;
        state.__svcDbOpen = undefined;
      }
    });
    void release().catch(() => {});
  });
  try {
    await thread.ready;
  } catch (err) {
    await release();
    throw err;
  }
  // drizzle runs every query through client.query(text, params, options): the texts of preparedStatement()s
  // go to named statements instead, with drizzle's own row options.
  const hot = new Set<string>();
  const client = {
    query: (text: string, params?: unknown[], options?: QueryOptions) =>
      hot.has(text)
        ? thread.named(text, params ?? [], statementName(text), options)
        : thread.query(text, params, options),
    exec: (text: string) => thread.exec(text),
    transaction: <T>(fn: (tx: ThreadClient) => Promise<T>) => thread.transaction(fn),
  };
  const db = withCommitHooks(drizzle({ client: client as never, schema, logger: statementLogger }) as unknown as Db);
  await assertBuildCanServe((text) => thread.query(text), migrationsFolder()).catch(async (err: unknown) => {
    await thread.close().catch(() => {});
    await release();
    throw err;
  });
  await migrate(db as never, { migrationsFolder: migrationsFolder() });
  // PGlite has no autovacuum, so planner statistics would never follow the data: without them a list
  // of 100,000 keys is planned as if it held two rows (a full sort instead of an index scan). Nor would the row
  // versions that updates and deletes leave behind ever be reclaimed (lib/db/analyze.ts).
  await thread.exec('analyze');
  // A pass that fails is logged, and the next interval tries again; the upkeep ends with the thread.
  thread.every(
    ANALYZE_EVERY_MS,
    () => maintainEmbeddedDatabase(thread),
    (err) => console.error('The embedded database upkeep (ANALYZE, VACUUM) failed; it runs again in a minute.', err),
  );
  thread.every(
    SMALL_TABLES_EVERY_MS,
    () => analyzeGrowingSmallTables(thread).then(() => {}),
    (err) => console.error('The embedded database upkeep (ANALYZE of small tables) failed; it runs again soon.', err),
  );
  opened.handle = {
    db,
    kind: 'pglite',
    raw: { query: (text, values, name) => thread.named(text, values, name) },
    hot,
    figures: () => ({ kind: 'pglite', pools: [], inFlight: thread.inFlight }),
    snapshot: (into) => thread.snapshot(into),
    close: async () => {
      await thread.close();
      await release();
    },
  };
  return opened.handle;
}

async function openPostgres({ url, directUrl, transactionPooler }: PostgresUrls): Promise<Handle> {
  const { DATABASE_CONNECT_TIMEOUT_MS: CONNECT_TIMEOUT_MS, DATABASE_QUERY_TIMEOUT_MS: QUERY_TIMEOUT_MS } = settings();
  const [pg, { drizzle }, { migrate }] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
    import('drizzle-orm/node-postgres/migrator'),
  ]);
  assertDatabaseMayBeUp();
  // Several instances may start together: one migrates while the others wait on the lock. Its own
  // connection, without the query timeout: a migration or the wait for the lock may take long. A session lock
  // and a migration's statements need one server session throughout: the direct URL, never a pooler.
  const migrator = new pg.Client({ connectionString: directUrl, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  try {
    await migrator.connect();
  } catch (err) {
    noteDatabaseFailed(err);
    await migrator.end().catch(() => {});
    throw err;
  }
  try {
    await migrator.query('select pg_advisory_lock(727274)');
    await assertBuildCanServe((text) => migrator.query(text), migrationsFolder());
    await migrate(drizzle({ client: migrator, schema }), { migrationsFolder: migrationsFolder() });
  } finally {
    await migrator.query('select pg_advisory_unlock(727274)').catch(() => {});
    await migrator.end().catch(() => {});
  }
  // Behind a transaction pooler, no statement may count on the session it ran on (lib/db/pooler.ts).
  // Every statement timed, so a slow request's log line names the long ones it overlapped (lib/db/long-statements.ts).
  const Client = timedClient(transactionPooler ? sessionFreeClient(pg.Client) : pg.Client);
  // Each pool names its sessions, so pg_stat_activity tells the durable writes from the counters.
  const newPool = (application_name: string, max: number, options?: string) => {
    const pool = new pg.Pool({
      Client,
      connectionString: url,
      application_name,
      max,
      options,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      // A query on a connection whose peer went silent (network partition) fails after this instead of hanging.
      query_timeout: QUERY_TIMEOUT_MS || undefined,
    });
    guardPool(pool);
    timeConnectionWaits(pool, application_name);
    // Without a listener, an idle client's network error would crash the process.
    pool.on('error', (err) => console.error('PostgreSQL pool error', err));
    // The same for a client checked out between two statements (a transaction's JavaScript) when its session is
    // ended: the pool listens only to idle clients. Its next statement fails with the error, and the caller says so.
    pool.on('connect', (client) => client.on('error', () => {}));
    return pool;
  };
  const pool = newPool('svc', settings().DATABASE_POOL_SIZE);
  // Its statements commit without waiting for the disk, each by itself (lib/http/rate-limit.ts `counterStore`),
  // not by a session setting a pooler would carry to other clients' transactions or lose.
  const counterPool = newPool('svc-counters', settings().DATABASE_COUNTER_POOL_SIZE);
  // Statements whose every value is hidden from the planner (`runBlindStatement`): their sessions keep one plan per
  // statement from its first run. Not behind a transaction pooler, where no statement is named (nor a session's).
  const blindPool = transactionPooler
    ? null
    : newPool('svc-search', settings().DATABASE_SEARCH_POOL_SIZE, '-c plan_cache_mode=force_generic_plan');
  const pools = [
    { name: 'svc', pool },
    { name: 'svc-counters', pool: counterPool },
    ...(blindPool ? [{ name: 'svc-search', pool: blindPool }] : []),
  ];
  const stopUpkeep = analyzeSmallTablesOnPostgres(pool);
  return {
    db: withCommitHooks(drizzle({ client: pool, schema, logger: statementLogger })),
    kind: 'postgres',
    close: async () => {
      stopUpkeep();
      await Promise.all(pools.map(({ pool: p }) => p.end()));
    },
    pool,
    counterPool,
    raw: { query: (text, values, name) => pool.query({ name, text, values }) },
    blind: blindPool ? { query: (text, values, name) => blindPool.query({ name, text, values }) } : undefined,
    figures: () => ({
      kind: 'postgres',
      pools: pools.map(({ name, pool: p }) => ({
        name,
        total: p.totalCount,
        idle: p.idleCount,
        waiting: p.waitingCount,
      })),
    }),
  };
}

/**
 * Every POSTGRES_SMALL_TABLES_EVERY_MS, the small tables that grew are analyzed (lib/db/analyze.ts
 * `analyzeGrowingSmallTables`), one pass at a time; a failed pass is logged once until one succeeds again (the
 * database may be away for a while: requests say so). Returns what stops it: a pass still running then fails
 * quietly, its pool closed under it.
 */
function analyzeSmallTablesOnPostgres(pool: Pool): () => void {
  const exec = {
    query: (text: string) => pool.query(text),
    // A client of its own: a statement failing inside its transaction is rolled back before the client goes back.
    exec: async (text: string) => {
      const client = await pool.connect();
      try {
        await client.query(text);
      } catch (err) {
        await client.query('rollback').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
  };
  let running = false;
  let failing = false;
  let stopped = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    analyzeGrowingSmallTables(exec, { lockTimeoutMs: POSTGRES_ANALYZE_LOCK_TIMEOUT_MS })
      .then(() => void (failing = false))
      .catch((err: unknown) => {
        if (!failing && !stopped)
          console.error('The upkeep (ANALYZE of small tables) failed; it runs again each second.', err);
        failing = true;
      })
      .finally(() => void (running = false));
  }, POSTGRES_SMALL_TABLES_EVERY_MS);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}

async function open(): Promise<Handle> {
  const urls = postgresUrls();
  const handle = urls ? await openPostgres(urls) : await openPglite();
  // Demo data is start-up's business (server/start.ts), not every query's: this module imports no domain code.
  await ensurePolicies(handle.db);
  state.__svcDbOpen = handle;
  return handle;
}

function handle(): Promise<Handle> {
  if (!state.__svcDb) {
    state.__svcDb = open();
    // A failed open is retried by the next caller instead of being cached forever.
    state.__svcDb.catch(() => {
      state.__svcDb = undefined;
    });
  }
  return state.__svcDb;
}

/** The process-wide database, opened, locked and migrated on first use. */
export async function getDb(): Promise<Db> {
  return (await handle()).db;
}

/** The PostgreSQL pool, for stores that speak to it directly (rate limits); null on the embedded database. */
export async function getPgPool(): Promise<Pool | null> {
  return (await handle()).pool ?? null;
}

/**
 * The PostgreSQL pool for writes that a crash of the database may lose without harm: the rate-limit
 * counters. Their statements commit without waiting for the WAL flush (each sets `synchronous_commit=off` for
 * its own transaction, lib/http/rate-limit.ts), so a request does not wait for a disk flush before its rate
 * limit is known; the counters are still shared and exact across instances, since a commit is visible at once
 * either way. A pool of its own, so counters never queue behind durable writes. Everything else, the audit log
 * included, goes through `getDb()` and `getPgPool()`, whose commits are durable when acknowledged. Null on the
 * embedded database.
 */
export async function getCounterPool(): Promise<Pool | null> {
  return (await handle()).counterPool ?? null;
}

/** Copies the open embedded database into `into` while it keeps serving (lib/backup); PostgreSQL has none. */
export async function snapshotEmbeddedDatabase(into: string): Promise<{ heldMs: number }> {
  const { snapshot } = await handle();
  if (!snapshot) throw new Error('Only the embedded database is copied; back PostgreSQL up from its URL.');
  return snapshot(into);
}

export async function closeDb(): Promise<void> {
  const current = state.__svcDb;
  state.__svcDb = undefined;
  state.__svcDbOpen = undefined;
  if (current) await (await current).close();
}

/**
 * A statement built once per process instead of on every request. Build it with `.prepare(name)` and
 * `sql.placeholder`: it is then parsed and planned once per PostgreSQL connection (node-postgres names it;
 * behind a transaction pooler it goes unnamed, parsed on each call), or once on PGlite
 * (lib/db/pglite-worker.mjs), and drizzle does not build its SQL again.
 */
export function preparedStatement<T extends { getQuery: () => { sql: string } }>(
  build: (db: Db) => T,
): () => Promise<T> {
  let built: { db: Db; statement: T } | undefined;
  return async () => {
    const { db, hot } = await handle();
    // A reopened database (tests close and reopen it) needs the statement built again on the new handle.
    if (built?.db !== db) {
      built = { db, statement: build(db) };
      hot?.add(built.statement.getQuery().sql);
    }
    return built.statement;
  };
}

// Names derive from the text, not a counter: Next bundles this module more than once, all on one pool.
const statementNames = new Map<string, string>();

/**
 * Runs a hot statement given as SQL text with `$n` parameters, without drizzle, as a named statement
 * (named after its text; unnamed behind a transaction pooler): parsed and planned once per PostgreSQL
 * connection, or once on PGlite (lib/db/pglite-worker.mjs). Rows come back by column name, with the
 * drivers' own types (timestamps as Date, jsonb parsed); map them with `rowOf` (lib/db/statement.ts). Build
 * the text from constants only: every value goes in `values`. It runs on its own, never inside a transaction.
 */
export async function runStatement<R>(text: string, values: unknown[]): Promise<R[]> {
  watchers.forEach((watch) => watch(text, values));
  const { rows } = await (await handle()).raw.query(text, values, statementName(text));
  return rows as R[];
}

/**
 * `runStatement` for a statement whose every value is hidden from the planner (one-row subqueries: `searchValue`
 * in lib/db/search.ts), so that any plan made for it is the same. On PostgreSQL, connected directly, it runs on
 * sessions set to keep that plan from the first run (`plan_cache_mode = force_generic_plan`, pool `svc-search`).
 * PostgreSQL's own rule plans a named statement for its values five times, then keeps the generic plan only
 * while it costs no more than the average of those: once `ANALYZE` changed the statistics, a search went on being
 * planned on every run for hundreds of runs, the planning half its time (docs/benchmarks.md). Elsewhere (PGlite, a
 * transaction pooler) as `runStatement`.
 */
export async function runBlindStatement<R>(text: string, values: unknown[]): Promise<R[]> {
  watchers.forEach((watch) => watch(text, values));
  const open = await handle();
  const { rows } = await (open.blind ?? open.raw).query(text, values, statementName(text));
  return rows as R[];
}

function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `svc_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return name;
}
