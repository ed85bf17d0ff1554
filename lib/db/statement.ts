import { and, eq, getTableColumns, sql, type SQL, type Table } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

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
