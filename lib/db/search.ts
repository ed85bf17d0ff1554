import { getTableName, sql, type SQL, type Table } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { runStatement } from './client';
import { rowOf } from './statement';

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

/** A newest-first `(created_at, id)` list of `table`, narrowed by a text search. */
export type SearchedList<T extends Table> = {
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
  limit: number;
  /** Columns after the table's, over the page's rows (named as `table`), and the joins they need: after the LIMIT. */
  columns?: SQL;
  joins?: SQL;
};

export type SearchedRows<R> = {
  /** Up to `limit + 1` matching rows, newest first. */
  rows: R[];
  /** Where the walk stopped with the page not full (no search index to ask): a client resumes after it. */
  resumeAt: { at: Date; id: string } | null;
};

const dialect = new PgDialect();

/**
 * One page of a searched list, in one statement whose plan does not hang on statistics (there are none for rows
 * that just arrived on PGlite, which has no autovacuum) or on a generic plan:
 * 1. The list's ordered index walked for at most `walk` rows (`LIMIT` in a fenced subquery), the match tested on
 *    each: a common `q` fills the page here, as an unfiltered page would. The walk's last row is kept as a marker.
 * 2. Only when the page is not full and the walk was: the matches beyond the marker, from the search indexes
 *    (`indexed`, each arm its own materialized scan, so the planner cannot turn it back into an ordered walk
 *    with a filter), sorted (a few rows: the rare matches) and limited. A pseudo-constant gate keeps this part
 *    from running at all otherwise.
 * Without `indexed` (a `q` too short for trigrams) the page is what the walk found, and `resumeAt` its marker:
 * a page may then hold fewer than `limit` rows and still have a next one (docs/api.md, "Search").
 */
export async function searchList<T extends Table, R extends Record<string, unknown> = Record<string, never>>(
  list: SearchedList<T>,
  extra: (raw: Record<string, unknown>) => R = () => ({}) as R,
): Promise<SearchedRows<T['$inferSelect'] & R>> {
  const name = sql.identifier(getTableName(list.table));
  const order = sql`${name}."created_at" desc, ${name}."id" desc`;
  const limit = list.limit + 1;
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
  const statement = sql`with ${found}${rest}
    select ${name}.*${list.columns ? sql`, ${list.columns}` : sql``}
    from (${page}) ${name} ${list.joins ?? sql``}
    order by ${order}`;
  const query = dialect.sqlToQuery(statement);
  const raws = await runStatement<Record<string, unknown>>(query.sql, query.params);
  const rows = raws.filter((raw) => raw.matched).slice(0, limit);
  const marker = raws.find((raw) => Number(raw.walked) === list.walk);
  const resumeAt =
    !arms && marker && rows.length < limit ? { at: marker.created_at as Date, id: marker.id as string } : null;
  return { rows: rows.map((raw) => ({ ...rowOf(list.table, raw), ...extra(raw) })), resumeAt };
}
