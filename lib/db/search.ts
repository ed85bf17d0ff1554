import { fillPlaceholders, getTableName, sql, type SQL, type SQLWrapper, type Table } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { runBlindStatement } from './client';

/** `text` as a LIKE pattern that matches it literally: `%`, `_` and the escape character lose their meaning. */
function literal(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A LIKE/ILIKE pattern for any text containing `text` (a trigram index serves it from three characters). */
export const containsPattern = (text: string) => `%${literal(text)}%`;

/** A LIKE pattern for any text starting with `text` (a `text_pattern_ops` btree serves it as a range). */
export const startsWithPattern = (text: string) => `${literal(text)}%`;

/** Trigrams need three characters: a shorter `q` cannot be narrowed by a trigram index. */
export const INDEXED_SEARCH_MIN = 3;

/**
 * A value of a search's statement (a placeholder, of an SQL type) as the planner cannot see it: a one-row subquery,
 * which runs once per statement (an InitPlan). Every value of the statement goes so, and each plan PostgreSQL
 * makes for it is then the same: a session keeps one per statement (`runBlindStatement`, lib/db/client.ts).
 * Seeing the values, it planned the statement anew for every search (it keeps a generic plan only when that costs
 * no more than the plans made for each value, and a trigram index's estimate depends on the pattern, the list's
 * on how many rows the organization holds): at 100,000 keys planning a search took longer than running it
 * (docs/benchmarks.md). The statements do not need the values to plan well: each index arm is the only index its
 * condition fits, and the walk is an index's order under a LIMIT.
 */
export const searchValue = (placeholder: string, type = 'text') =>
  sql`(select ${sql.placeholder(placeholder)}::${sql.raw(type)})`;

/**
 * `column` starts with the placeholder's text, as the range a `text_pattern_ops` btree serves: `LIKE 'abc%'`
 * implies it only to a planner that sees the pattern. The upper bound is the text followed by the highest code
 * point, above every continuation a prefix can have (prefixes are base62). `LIKE` still decides the match.
 */
export const startsWithRange = (column: SQLWrapper, placeholder: string) =>
  sql`${column} ~>=~ ${searchValue(placeholder)} and ${column} ~<~ (select ${sql.placeholder(placeholder)}::text || chr(1114111))`;

const dialect = new PgDialect();

/**
 * A newest-first `(created_at, id)` list of `table`, narrowed by a text search. Every value in it is a
 * `searchValue`, filled per call: the statement is built once per shape of the list and runs as a named one.
 */
export type SearchedList<T extends Table, Row> = {
  table: T;
  /** The list's own conditions (scope, filters, cursor) over `table`'s columns: what its unfiltered page reads. */
  where: SQL;
  /** Whether a row matches the search. */
  match: SQL;
  /**
   * Conditions that each one search index serves alone (a trigram GIN, a prefix range) and that together keep
   * every row `match` keeps within `where`; null when no index can narrow the search (a `q` of one or two).
   */
  indexed: SQL[] | null;
  /** How many rows of the list the ordered walk examines before the search indexes are asked (or the page ends). */
  walk: number;
  /** The page's row as the unfiltered list reads it (`jsonRow`), over the page's rows named as `table`. */
  row: { sql: SQL; read: (values: unknown[]) => Row };
};

export type SearchedRows<Row> = {
  /** Up to `limit + 1` matching rows, newest first. */
  rows: Row[];
  /** Where the walk stopped with the page not full (no search index to ask): a client resumes after it. */
  resumeAt: { at: Date; id: string } | null;
};

type SearchRaw = { row: unknown[]; matched: boolean; walked: string | number; created_at: Date; id: string };

/**
 * One page of a searched list, in one statement whose plan does not hang on statistics (there are none for rows
 * that just arrived on PGlite, which has no autovacuum) nor on its values (`searchValue`), so PostgreSQL
 * plans it once and keeps the plan:
 * 1. The list's ordered index walked for at most `walk` rows (`LIMIT` in a fenced subquery), the match tested on
 *    each: a common `q` fills the page here, as an unfiltered page would. The walk's last row is kept as a marker.
 * 2. Only when the page is not full and the walk was: the matches beyond the marker, from the search indexes
 *    (`indexed`, each arm its own materialized scan, so the planner cannot turn it back into an ordered walk
 *    with a filter), sorted (a few rows: the rare matches) and limited. A pseudo-constant gate keeps this part
 *    from running at all otherwise.
 * Without `indexed` (a `q` too short for trigrams) the page is what the walk found, and `resumeAt` its marker:
 * a page may then hold fewer than `limit` rows and still have a next one (docs/api.md, "Search").
 *
 * Built once (call it per shape of the list and keep what it returns); the returned function takes the
 * placeholders' values, `limit` among them (the page's size plus one). The page's rows come back as `row` reads
 * them (`jsonRow`), so a found page costs what a listed one does.
 */
export function searchStatement<T extends Table, Row>(
  list: SearchedList<T, Row>,
): (values: Record<string, unknown>) => Promise<SearchedRows<Row>> {
  const name = sql.identifier(getTableName(list.table));
  const order = sql`${name}."created_at" desc, ${name}."id" desc`;
  const limit = searchValue('limit', 'int');
  const walk = sql.raw(String(list.walk));
  const found = sql`"found" as materialized (
    select * from (
      select ${name}.*, (${list.match}) as "matched", row_number() over (order by ${order}) as "walked"
      from (select * from ${name} where ${list.where} order by ${order} limit ${walk} offset 0) ${name}
    ) ${name}
    where "matched" or "walked" = ${walk}
    order by ${order} limit ${limit}
  )`;
  const arms = list.indexed?.map((arm, i) =>
    i === 0
      ? sql`select * from ${name} where ${arm}`
      : sql`select * from ${name} where ${arm} and not (${list.indexed![0]})`,
  );
  const rest = arms
    ? sql`, "candidates" as materialized (${sql.join(arms, sql` union all `)}),
    "rest" as (
      select ${name}.*, true as "matched", 0::bigint as "walked" from "candidates" ${name}
      where ${list.where}
        and (${name}."created_at", ${name}."id") < (select "created_at", "id" from "found" where "walked" = ${walk})
        and exists (select from "found" where "walked" = ${walk})
        and (select count(*) from "found" where "matched") < ${limit}
      order by ${order} limit ${limit}
    )`
    : sql``;
  const page = arms ? sql`select * from "found" union all select * from "rest"` : sql`select * from "found"`;
  const { sql: text, params } = dialect.sqlToQuery(sql`with ${found}${rest}
    select ${list.row.sql} as "row", ${name}."matched", ${name}."walked", ${name}."created_at", ${name}."id"
    from (${page}) ${name}
    order by ${order}`);
  return async (values) => {
    const limit = Number(values.limit);
    const raws = await runBlindStatement<SearchRaw>(text, fillPlaceholders(params, values));
    const rows = raws.filter((raw) => raw.matched).slice(0, limit);
    const end = raws.find((raw) => Number(raw.walked) === list.walk);
    const resumeAt = !arms && end && rows.length < limit ? { at: end.created_at, id: end.id } : null;
    return { rows: rows.map((raw) => list.row.read(raw.row)), resumeAt };
  };
}
