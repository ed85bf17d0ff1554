import { and, asc, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { getDb } from '../db/client';
import { afterCursor, toPage, type Page, type PageQuery } from './pagination';

/** A table whose rows are listed by when they were made: a uuid `id` and a `createdAt`. */
type MadeRows = PgTable & { id: PgColumn; createdAt: PgColumn };

/**
 * One page of a table's rows matching `where`, oldest first in (createdAt, id): the lists whose order never
 * changes as rows are added (organizations, projects, bots, subscriptions). Server code only: it reads the database.
 */
export async function pageInCreationOrder<T extends MadeRows>(
  table: T,
  where: SQL | undefined,
  page: PageQuery,
): Promise<Page<T['$inferSelect'] & { id: string; createdAt: Date }>> {
  const db = await getDb();
  const rows = (await db
    .select()
    .from(table as PgTable)
    .where(and(where, afterCursor(page.cursor, table.createdAt, table.id, 'asc')))
    .orderBy(asc(table.createdAt), asc(table.id))
    .limit(page.limit + 1)) as (T['$inferSelect'] & { id: string; createdAt: Date })[];
  return toPage(
    rows,
    page.limit,
    (r) => r.createdAt,
    (r) => r,
  );
}

/** A page whose items are mapped, its cursor kept. */
export function mapPage<A, B>(page: Page<A>, map: (item: A) => B): Page<B> {
  return { items: page.items.map(map), nextCursor: page.nextCursor };
}
