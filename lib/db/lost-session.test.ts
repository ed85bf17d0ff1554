import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { scratchPostgres } from '../../server/testing/test-database';
import { getDb } from './client';

const postgres = await scratchPostgres('lost_session');

describe.skipIf(!postgres.reachable)('a session ended while its client is checked out', () => {
  postgres.use();
  const uncaught: unknown[] = [];
  const note = (err: unknown) => uncaught.push(err);
  afterEach(() => void process.off('uncaughtException', note));

  it('fails that transaction, not the process, and the next one runs on a new session', async () => {
    // Vitest reports an uncaught error as the run's failure; this listener sees it first and the test says so.
    process.on('uncaughtException', note);
    const db = await getDb();
    const ended = db.transaction(async (tx) => {
      const [{ pid }] = (await tx.execute(sql`select pg_backend_pid() as pid`)).rows as { pid: number }[];
      // Between two statements the client is the transaction's, not the pool's: no pool listener hears it.
      await postgres.admin.query('select pg_terminate_backend($1)', [pid]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await tx.execute(sql`select 1`);
    });
    await expect(ended).rejects.toThrow();
    expect(uncaught).toEqual([]);
    const { rows } = await db.execute(sql`select 2 as two`);
    expect(rows).toEqual([{ two: 2 }]);
  });
});
