import { inBackground } from './priority';

type Exec = { query: (text: string) => Promise<{ rows: unknown[] }>; exec: (text: string) => Promise<unknown> };
type Table = { oid: string; name: string; analyzedPages: number; pages: number; rows: number };

// Past this many rows a table is analyzed from a sample of this size (statistics target 10, where the default
// 100 samples 30,000 rows), since every request's statement queues behind an ANALYZE on the embedded database.
// The first ANALYZE, at start, samples as PostgreSQL does by default. Past it, only the columns an index reads (its
// keys, expressions and predicate) are analyzed again; the others keep the statistics of the table's last full
// ANALYZE. Both cut the pass several times over (docs/benchmarks.md, "Measured reasons in the code").
const SAMPLED_ROWS = 3_000;

/**
 * PGlite has no autovacuum, so planner statistics follow the data only when we ANALYZE. Every
 * ANALYZE_EVERY_MS, each table whose size moved by a tenth since its last ANALYZE (or that has rows and never
 * had one) is analyzed, one table per statement, in the background: requests' statements go between them
 * (lib/db/priority.ts), where one ANALYZE of the whole database held the backend for as long as all the tables
 * took together, and a big table from a small sample. The size stands in for the change counters, which PGlite
 * reports only when asked and loses at every restart (vacuumDeadTables below). With `smallerThan`, only the tables
 * whose last ANALYZE found fewer pages than that.
 */
export function analyzeChangedTables(
  db: Exec,
  { smallerThan = Infinity, lockTimeoutMs }: { smallerThan?: number; lockTimeoutMs?: number } = {},
): Promise<string[]> {
  return inBackground(async () => {
    const { rows } = await db.query(`
      select c.oid::text as oid, quote_ident(n.nspname) || '.' || quote_ident(c.relname) as name,
        c.relpages as "analyzedPages", (pg_relation_size(c.oid) / current_setting('block_size')::int)::int as pages,
        c.reltuples::float8 as rows
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind = 'r' and n.nspname not in ('pg_catalog', 'information_schema')`);
    const due = (rows as Table[]).filter(
      (t) => t.analyzedPages < smallerThan && Math.abs(t.pages - t.analyzedPages) > t.analyzedPages / 10,
    );
    const analyzed: string[] = [];
    for (const table of due) {
      try {
        await db.exec(await analyzeStatement(db, table, lockTimeoutMs));
        analyzed.push(table.name);
      } catch (err) {
        // Another session's ANALYZE or VACUUM of the table (another instance's pass, autovacuum) holds its lock:
        // that one renews the statistics.
        if (lockTimeoutMs === undefined || (err as { code?: string }).code !== LOCK_NOT_AVAILABLE) throw err;
      }
    }
    return analyzed;
  });
}

const LOCK_NOT_AVAILABLE = '55P03';

/**
 * The whole table, or past SAMPLED_ROWS a sample of the columns an index reads (its keys, expressions, predicate).
 * With `lockTimeoutMs`, it waits at most that long for the table's lock.
 */
async function analyzeStatement(db: Exec, table: Table, lockTimeoutMs?: number): Promise<string> {
  const local = lockTimeoutMs === undefined ? [] : [`set local lock_timeout = ${Math.round(lockTimeoutMs)}`];
  let target = table.name;
  if (rowsNow(table) > SAMPLED_ROWS) {
    const { rows } = await db.query(`
      select string_agg(distinct quote_ident(a.attname), ', ') as indexed
      from pg_index i join pg_depend d on d.classid = 'pg_class'::regclass and d.objid = i.indexrelid
      join pg_attribute a on a.attrelid = d.refobjid and a.attnum = d.refobjsubid
      where i.indrelid = ${table.oid}::oid and d.refobjid = ${table.oid}::oid and d.refobjsubid > 0`);
    const { indexed } = rows[0] as { indexed: string | null };
    local.push('set local default_statistics_target = 10');
    if (indexed) target += ` (${indexed})`;
  }
  return local.length === 0 ? `analyze ${target}` : `begin; ${local.join('; ')}; analyze ${target}; commit`;
}

/** Tables whose last ANALYZE (or VACUUM) found them smaller than this many pages are looked at every few seconds. */
const SMALL_PAGES = 64;

/**
 * The tables that were small at their last ANALYZE and have changed by a tenth since, analyzed now, every
 * SMALL_TABLES_EVERY_MS (lib/db/client.ts) rather than at the next minute's pass. A plan made while a table held a
 * page or two scans it whole, and a plan the backend keeps (a foreign key's check, a named statement) is made
 * again only when the table's statistics change: a queue's stored messages, empty when the database opened,
 * had each publish's foreign-key check read every message stored so far, several times slower after ten
 * thousand of them, until the minute's pass (docs/benchmarks.md). The look is one statement over the catalog, a
 * few milliseconds; an ANALYZE of a small table reads all of it, about as long.
 *
 * On PostgreSQL too (POSTGRES_SMALL_TABLES_EVERY_MS), where autovacuum analyzes a changed table only at its next
 * round, a minute apart by default: the delivery functions keep generic plans, made at a session's first call,
 * and made on an empty `subscription_deliveries` they read every delivery row at each record until then. There,
 * `lockTimeoutMs` gives the table up to the ANALYZE or VACUUM already holding it (another instance's pass,
 * autovacuum).
 */
export function analyzeGrowingSmallTables(
  db: Exec,
  { lockTimeoutMs }: { lockTimeoutMs?: number } = {},
): Promise<string[]> {
  return analyzeChangedTables(db, { smallerThan: SMALL_PAGES, lockTimeoutMs });
}

// For a table that held no rows at its last ANALYZE, a guess of the rows an 8 kB page holds: twice the audit
// events' (about 30), a quarter of a table of one integer's. A wrong guess costs little either way: a narrow
// table's full ANALYZE is quick, and a wide one's sample is all of its rows until it passes 3,000.
const ROWS_PER_PAGE_UNKNOWN = 60;

/**
 * The table's rows now, as the planner estimates them: its rows per page at the last ANALYZE (or VACUUM) times its
 * pages now. The count of that ANALYZE alone would take a table that grew from 100 rows to 25,000 since for a
 * small one, and analyze it whole, every column at statistics target 100, with every request's statement queued
 * behind (the first pass after start, under writes).
 */
function rowsNow(t: Table): number {
  const perPage = t.analyzedPages > 0 && t.rows > 0 ? t.rows / t.analyzedPages : ROWS_PER_PAGE_UNKNOWN;
  return perPage * t.pages;
}

type Dead = { name: string; dead: number; rows: number; xidAge: number };

// PostgreSQL's autovacuum defaults: a table is vacuumed once its dead row versions pass 50 plus a fifth of its
// rows (autovacuum_vacuum_threshold, autovacuum_vacuum_scale_factor), or its oldest unfrozen transaction id is
// 150 million transactions old (vacuum_freeze_table_age: the vacuum then freezes the whole table, long before
// the 2 billion at which the database would stop taking writes).
const DEAD_ROWS_BASE = 50;
const DEAD_ROWS_SHARE = 0.2;
const FREEZE_AGE = 150_000_000;

/**
 * PGlite has no autovacuum either, so without this every update and delete would leave its old row version behind
 * for good: the table and its indexes only grow, and a search walks the dead versions' index entries too, several
 * times slower than after one short VACUUM (docs/benchmarks.md). Every ANALYZE_EVERY_MS, after the ANALYZE pass,
 * each table past autovacuum's thresholds is vacuumed, one table per statement, in the background as the ANALYZE is.
 * PGlite keeps the counters that autovacuum reads (pg_stat_user_tables) but reports them only when asked to (it never
 * goes idle as a server's backend does), and starts them at zero when it opens: dead versions from before a restart
 * wait for the table's next vacuum.
 */
export function vacuumDeadTables(db: Exec): Promise<string[]> {
  return inBackground(async () => {
    await db.query('select pg_stat_force_next_flush()');
    const { rows } = await db.query(`
      select quote_ident(s.schemaname) || '.' || quote_ident(s.relname) as name, s.n_dead_tup::float8 as dead,
        greatest(c.reltuples, 0)::float8 as rows, age(c.relfrozenxid)::float8 as "xidAge"
      from pg_stat_user_tables s join pg_class c on c.oid = s.relid`);
    const due = (rows as Dead[]).filter(
      (t) => t.dead > DEAD_ROWS_BASE + DEAD_ROWS_SHARE * t.rows || t.xidAge > FREEZE_AGE,
    );
    for (const table of due) await db.exec(`vacuum ${table.name}`);
    return due.map((t) => t.name);
  });
}

/** The embedded database's upkeep, every ANALYZE_EVERY_MS: statistics first (a VACUUM resets the size they compare). */
export async function maintainEmbeddedDatabase(db: Exec): Promise<void> {
  await analyzeChangedTables(db);
  await vacuumDeadTables(db);
}
