import { inBackground } from './priority';

type Exec = { query: (text: string) => Promise<{ rows: unknown[] }>; exec: (text: string) => Promise<unknown> };
type Table = { name: string; analyzedPages: number; pages: number; rows: number; indexed: string | null };

// Past this many rows a table is analyzed from a sample of this size (statistics target 10, where the default
// 100 samples 30,000 rows): 100,000 audit events took 237 ms to analyze at 100 and 37 ms at 10, all of it with
// every request's statement queued behind. The first ANALYZE, at start, samples as PostgreSQL does by default.
// Past it, only the columns an index reads (its keys, expressions and predicate) are analyzed again; the others
// keep the statistics of the table's last full ANALYZE. 60,000 audit events: 8-12 ms against 26-35 ms for all
// columns, under the bench every minute or so (each PATCH leaves a row version and an event behind).
const SAMPLED_ROWS = 3_000;

/**
 * PGlite has no autovacuum, so planner statistics follow the data only when we ANALYZE. Every
 * ANALYZE_EVERY_MS, each table whose size moved by a tenth since its last ANALYZE (or that has rows and never
 * had one) is analyzed, one table per statement, in the background: requests' statements go between them
 * (lib/db/priority.ts), where one ANALYZE of the whole database held the backend for as long as all the tables
 * took together, and a big table from a small sample. PGlite keeps no change counters (pg_stat_user_tables stays
 * at zero), so the size stands in.
 */
export function analyzeChangedTables(db: Exec): Promise<string[]> {
  return inBackground(async () => {
    const { rows } = await db.query(`
      select quote_ident(n.nspname) || '.' || quote_ident(c.relname) as name, c.relpages as "analyzedPages",
        (pg_relation_size(c.oid) / current_setting('block_size')::int)::int as pages, c.reltuples::float8 as rows,
        (select string_agg(distinct quote_ident(a.attname), ', ')
           from pg_index i join pg_depend d on d.classid = 'pg_class'::regclass and d.objid = i.indexrelid
           join pg_attribute a on a.attrelid = d.refobjid and a.attnum = d.refobjsubid
           where i.indrelid = c.oid and d.refobjid = c.oid and d.refobjsubid > 0) as indexed
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind = 'r' and n.nspname not in ('pg_catalog', 'information_schema')`);
    const due = (rows as Table[]).filter((t) => Math.abs(t.pages - t.analyzedPages) > t.analyzedPages / 10);
    for (const table of due)
      await db.exec(
        table.rows > SAMPLED_ROWS
          ? `begin; set local default_statistics_target = 10; analyze ${table.name}${table.indexed ? ` (${table.indexed})` : ''}; commit`
          : `analyze ${table.name}`,
      );
    return due.map((t) => t.name);
  });
}
