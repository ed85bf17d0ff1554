import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { getDb } from './client';
import { withEmptyEmbeddedDatabase } from '../../server/testing/test-database';

// The embedded database's upkeep as the app schedules it (lib/db/client.ts): a minute after it opened, the
// tables that changed are analyzed and the ones past autovacuum's threshold vacuumed (lib/db/analyze.ts).
// Only the intervals are faked: the statements run on the real PGlite thread.
vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
afterAll(() => {
  vi.useRealTimers();
});
withEmptyEmbeddedDatabase('upkeep');

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function upkeepOf(table: string) {
  const db = await getDb();
  await db.execute(sql`select pg_stat_force_next_flush()`);
  const { rows } = await db.execute(
    sql`select last_analyze is not null as analyzed, last_vacuum is not null as vacuumed, n_dead_tup::int as dead
        from pg_stat_user_tables where relname = ${table}`,
  );
  return rows[0] as { analyzed: boolean; vacuumed: boolean; dead: number };
}

describe('the embedded database, open in the app', () => {
  it('analyzes and vacuums a table edited past the threshold a minute after it opened, and not before', async () => {
    const db = await getDb();
    await db.execute(sql`create table upkeep_probe (id int primary key, note text)`);
    await db.execute(sql`insert into upkeep_probe select n, 'a' from generate_series(1, 300) n`);
    // 300 dead row versions, past the threshold of a table of 300 rows (50 + 60).
    await db.execute(sql`update upkeep_probe set note = 'b'`);
    await vi.advanceTimersByTimeAsync(59_000);
    await pause(500);
    expect(await upkeepOf('upkeep_probe')).toEqual({ analyzed: false, vacuumed: false, dead: 300 });

    await vi.advanceTimersByTimeAsync(1_000);
    for (let waited = 0; waited < 10_000 && !(await upkeepOf('upkeep_probe')).vacuumed; waited += 100) await pause(100);
    expect(await upkeepOf('upkeep_probe')).toEqual({ analyzed: true, vacuumed: true, dead: 0 });
  });
});
