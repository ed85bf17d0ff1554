import { and, Column, eq, fillPlaceholders, getTableColumns, is, sql, type SQL, type Table } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import { runStatement, type DbOrTx } from './client';

/**
 * The values of a statement built as SQL text for `runStatement`: `add(value, type)` appends the value and
 * gives its placeholder (`$3::uuid`). The text then depends only on the order of the calls, so one code
 * path always builds one text, and PostgreSQL plans it once per connection.
 */
export class StatementValues {
  readonly values: unknown[] = [];

  add(value: unknown, type?: string): string {
    this.values.push(value);
    return type ? `$${this.values.length}::${type}` : `$${this.values.length}`;
  }
}

/** How many rows a statement run by `execute` wrote (its outermost insert, update or delete). */
export function affectedRows(result: unknown): number {
  // node-postgres says rowCount, PGlite affectedRows.
  const { rowCount, affectedRows: affected } = result as { rowCount?: number | null; affectedRows?: number };
  return rowCount ?? affected ?? 0;
}

/**
 * SQL text built with placeholders (`build(p)`, where `p(value, type)` marks a value as `StatementValues.add` does)
 * as a drizzle fragment, for text that statements run as text and statements drizzle runs share: each value becomes
 * a drizzle parameter. The marks are an index between NULs, which no SQL text holds.
 */
export function textAsSql(build: (p: (value: unknown, type: string) => string) => string): SQL {
  const values: unknown[] = [];
  const text = build((value, type) => {
    values.push(value);
    return `\u0000${values.length - 1}\u0000::${type}`;
  });
  const parts = text.split(/\u0000(\d+)\u0000/);
  return sql.join(
    parts.map((part, i) => (i % 2 === 1 ? sql`${values[Number(part)]}` : sql.raw(part))),
    sql.raw(''),
  );
}

/**
 * The rows of a statement drizzle runs from its `sql` template (a CTE, `for update skip locked`, an update's
 * `returning`), typed as its select list names them: the one way to read what `execute` answers.
 */
export async function queryRows<R>(db: DbOrTx, query: SQL): Promise<R[]> {
  return (await db.execute(query)).rows as R[];
}

/**
 * A row as `runStatement` returns it (columns by their SQL names, in the driver's types) in drizzle's shape
 * for `table`: the keys and types of `typeof table.$inferSelect`, through each column's own mapping.
 */
export function rowOf<T extends Table>(table: T, raw: Record<string, unknown>): T['$inferSelect'] {
  const out: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = raw[column.name];
    if (value === null || value === undefined) out[key] = null;
    // Both drivers already parse timestamps; drizzle's mapping expects the text it asks node-postgres for.
    else out[key] = value instanceof Date ? value : column.mapFromDriverValue(value);
  }
  return out as T['$inferSelect'];
}

/** A project-scoped table's rows of one project, only within the caller's organization. */
export function projectWhere(
  table: { organizationId: PgColumn; projectId: PgColumn },
  scope: { organizationId: string; projectId: string },
): SQL {
  return and(eq(table.organizationId, scope.organizationId), eq(table.projectId, scope.projectId))!;
}

/**
 * One resource of a project, for a prepared read: its `id`, `organizationId` and `projectId` equal to the
 * placeholders of those names, so `execute({ ...scope, id })` fills them.
 */
export function projectResourceWhere(table: { id: PgColumn; organizationId: PgColumn; projectId: PgColumn }): SQL {
  return and(
    eq(table.organizationId, sql.placeholder('organizationId')),
    eq(table.projectId, sql.placeholder('projectId')),
    eq(table.id, sql.placeholder('id')),
  )!;
}

/**
 * `OFFSET 0` for `.offset(…)`: it keeps a subquery a fence that the planner plans on its own instead of flattening
 * it into the outer query. drizzle leaves out a falsy offset, so the zero goes as SQL text.
 */
export const PLANNER_FENCE = sql`0` as unknown as number;

/** What `jsonRow` reads: columns, and SQL expressions whose JSON value is already what they are typed as. */
type JsonRowField = PgColumn | SQL<unknown>;
/** The column types a `jsonRow` reads back: a timestamp from its JSON text, the rest as JSON gives them. */
const JSON_ROW_COLUMNS = new Set(['PgUUID', 'PgText', 'PgVarchar', 'PgJsonb', 'PgInteger', 'PgBoolean', 'PgTimestamp']);

/**
 * A select list as one JSON array per row (`json_build_array`), and its reader. A driver then parses one value
 * per row instead of one per column, which roughly halves both drivers' parsing of a page (docs/benchmarks.md), and
 * drizzle's own mapping, which checks the kind of every field of every row, is skipped too. For the hot lists; a
 * timestamp comes back as the text PostgreSQL writes in JSON (with its offset) and is read into a Date.
 */
export function jsonRow<S extends Record<string, JsonRowField>>(selection: S) {
  const fields = Object.entries(selection).map(([key, field]) => {
    if (!is(field, Column)) return { key, date: false };
    if (!JSON_ROW_COLUMNS.has(field.columnType)) throw new Error(`jsonRow cannot read a ${field.columnType} column`);
    return { key, date: field.columnType === 'PgTimestamp' };
  });
  return {
    sql: sql<unknown[]>`json_build_array(${sql.join(Object.values(selection), sql`, `)})`,
    read(values: unknown[]): SelectResultFields<S> {
      const row: Record<string, unknown> = {};
      fields.forEach(({ key, date }, i) => {
        const value = values[i] ?? null;
        row[key] = date && value !== null ? new Date(value as string) : value;
      });
      return row as SelectResultFields<S>;
    },
  };
}

/**
 * A read that drizzle builds once (from a `QueryBuilder`, values as `sql.placeholder`s) selecting one `jsonRow`
 * as `row`, run as `runStatement` text (a named statement) and read row by row.
 */
export function jsonRowsStatement<Row>(
  query: { toSQL: () => { sql: string; params: unknown[] } },
  row: { read: (values: unknown[]) => Row },
): (values: Record<string, unknown>) => Promise<Row[]> {
  const { sql: text, params } = query.toSQL();
  return async (values) => {
    const rows = await runStatement<{ row: unknown[] }>(text, fillPlaceholders(params, values));
    return rows.map((raw) => row.read(raw.row));
  };
}
