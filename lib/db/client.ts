import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { Pool } from 'pg';
import * as schema from './schema';

export type Db = NodePgDatabase<typeof schema>;
/** The transaction handle drizzle passes to `db.transaction(tx => …)`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

type Handle = { db: Db; kind: 'pglite' | 'postgres'; close: () => Promise<void>; pool?: Pool };

// Next bundles route handlers and instrumentation separately; the handle must be one per process.
const state = globalThis as unknown as { __svcDb?: Promise<Handle> };

export function migrationsFolder(): string {
  return path.join(/* turbopackIgnore: true */ process.cwd(), 'drizzle');
}

export function dataDir(): string {
  return path.resolve(/* turbopackIgnore: true */ process.env.DATA_DIR ?? './data');
}

export class DataDirLockedError extends Error {
  constructor(dir: string) {
    super(
      `The embedded database in ${dir} is in use by another process. ` +
        'PGlite cannot be shared between processes: stop the other one, choose another DATA_DIR, ' +
        'or set DATABASE_URL to run several instances on PostgreSQL.',
    );
    this.name = 'DataDirLockedError';
  }
}

const ANALYZE_EVERY_MS = 5 * 60_000;

async function openPglite(): Promise<Handle> {
  const [{ PGlite }, { drizzle }, { migrate }, lockfile] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
    import('proper-lockfile'),
  ]);
  const dir = dataDir();
  mkdirSync(dir, { recursive: true });
  let release: () => Promise<void>;
  try {
    // PGlite has no cross-process lock of its own: a second writer would silently fork the data.
    release = await lockfile.lock(dir, {
      lockfilePath: path.join(dir, '.lock'),
      stale: 30_000,
      update: 5_000,
      retries: 0,
      realpath: false,
      onCompromised: (err) => {
        console.error('Lost the lock on the embedded database; exiting to protect the data.', err);
        process.exit(1);
      },
    });
  } catch (err) {
    if ((err as { code?: string }).code === 'ELOCKED') throw new DataDirLockedError(dir);
    throw err;
  }
  const client = new PGlite(path.join(dir, 'pglite'));
  await client.waitReady;
  const db = drizzle({ client, schema }) as unknown as Db;
  await migrate(db as never, { migrationsFolder: migrationsFolder() });
  // PGlite has no autovacuum, so planner statistics would never follow the data: without them a list
  // of 100,000 keys is planned as if it held two rows (a full sort instead of an index scan).
  await client.exec('analyze');
  const analyzer = setInterval(() => void client.exec('analyze').catch(() => {}), ANALYZE_EVERY_MS);
  analyzer.unref();
  return {
    db,
    kind: 'pglite',
    close: async () => {
      clearInterval(analyzer);
      await client.close();
      await release();
    },
  };
}

async function openPostgres(url: string): Promise<Handle> {
  const [{ Pool }, { drizzle }, { migrate }] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
    import('drizzle-orm/node-postgres/migrator'),
  ]);
  const pool = new Pool({
    connectionString: url,
    max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
    connectionTimeoutMillis: 5_000,
  });
  // Without a listener, an idle client's network error would crash the process.
  pool.on('error', (err) => console.error('PostgreSQL pool error', err));
  const db = drizzle({ client: pool, schema });
  // Several instances may start together: one migrates while the others wait on the lock.
  const lockClient = await pool.connect();
  try {
    await lockClient.query('select pg_advisory_lock(727274)');
    await migrate(db, { migrationsFolder: migrationsFolder() });
  } finally {
    await lockClient.query('select pg_advisory_unlock(727274)').catch(() => {});
    lockClient.release();
  }
  return { db, kind: 'postgres', close: () => pool.end(), pool };
}

async function open(): Promise<Handle> {
  const url = process.env.DATABASE_URL;
  const handle = url ? await openPostgres(url) : await openPglite();
  const { ensurePolicies, seedDemoData } = await import('./seed');
  await ensurePolicies(handle.db);
  // The embedded database is the demo; PostgreSQL gets demo data only when asked.
  const seed = handle.kind === 'pglite' ? process.env.SEED_DEMO !== '0' : process.env.SEED_DEMO === '1';
  if (seed) await seedDemoData(handle.db);
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

export async function databaseKind(): Promise<Handle['kind']> {
  return (await handle()).kind;
}

/** The PostgreSQL pool, for stores that speak to it directly (rate limits); null on the embedded database. */
export async function getPgPool(): Promise<Pool | null> {
  return (await handle()).pool ?? null;
}

export async function closeDb(): Promise<void> {
  const current = state.__svcDb;
  state.__svcDb = undefined;
  if (current) await (await current).close();
}

/**
 * A statement built once per process instead of on every request. Build it with `.prepare(name)` and
 * `sql.placeholder`: on PostgreSQL node-postgres then parses and plans it once per connection (a named
 * statement); PGlite's query API has no named statements, so there it saves drizzle's SQL building only.
 */
export function preparedStatement<T>(build: (db: Db) => T): () => Promise<T> {
  let built: { db: Db; statement: T } | undefined;
  return async () => {
    const db = await getDb();
    // A reopened database (tests close and reopen it) needs the statement built again on the new handle.
    if (built?.db !== db) built = { db, statement: build(db) };
    return built.statement;
  };
}
