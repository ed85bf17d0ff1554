import { sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { getDb } from './client';
import { affectedRows } from './statement';

/** Rows per statement: a batch holds the embedded database's one backend for a few milliseconds at most. */
export const DELETE_BATCH = 1000;

/**
 * Housekeeping's deletes, in batches of DELETE_BATCH rows, each its own statement with a turn of the event loop
 * between them: on the embedded database the requests queued meanwhile go first (lib/db/priority.ts), where one
 * delete of a day's idempotency records held its backend for as long as it took. Returns how many rows went.
 */
export async function deleteInBatches(table: PgTable, where: SQL, batch = DELETE_BATCH): Promise<number> {
  const db = await getDb();
  let deleted = 0;
  for (;;) {
    const result = await db.execute(sql`
      delete from ${table} where ctid = any(array(select ctid from ${table} where ${where} limit ${batch}))`);
    const count = affectedRows(result);
    deleted += count;
    if (count < batch) return deleted;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
