import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { getDb } from './client';
import { withEmptyEmbeddedDatabase } from '../../server/testing/test-database';

// The embedded database's upkeep as the app schedules it (lib/db/client.ts): every 5 s the tables that were small at
// their last ANALYZE and grew are analyzed; a minute after it opened, the bigger tables that changed are analyzed and
// the ones past autovacuum's threshold vacuumed (lib/db/analyze.ts). Only the intervals are faked: the statements
// run on the real PGlite thread.
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
    sql`select analyze_count::int as analyzed, vacuum_count::int as vacuumed, n_dead_tup::int as dead
        from pg_stat_user_tables where relname = ${table}`,
  );
  return rows[0] as { analyzed: number; vacuumed: number; dead: number };
}

async function waitFor(check: () => Promise<boolean>) {
  for (let waited = 0; waited < 10_000 && !(await check()); waited += 100) await pause(100);
}

describe('the embedded database, open in the app', () => {
  it('analyzes a small table that grew within 5 s; a big one, and the vacuums, a minute after it opened', async () => {
    const db = await getDb();
    await db.execute(sql`create table upkeep_small (id int primary key, note text)`);
    await db.execute(sql`insert into upkeep_small select n, 'a' from generate_series(1, 300) n`);
    // 300 dead row versions, past the threshold of a table of 300 rows (50 + 60).
    await db.execute(sql`update upkeep_small set note = 'b'`);
    // Past 64 pages at its ANALYZE, then grown by more than a tenth: the minute's pass is its.
    await db.execute(sql`create table upkeep_big (id int primary key, note text)`);
    await db.execute(sql`insert into upkeep_big select n, 'a' from generate_series(1, 30000) n`);
    await db.execute(sql`analyze upkeep_big`);
    await db.execute(sql`insert into upkeep_big select n, 'a' from generate_series(30001, 36000) n`);

    await vi.advanceTimersByTimeAsync(4_900);
    await pause(500);
    expect(await upkeepOf('upkeep_small')).toEqual({ analyzed: 0, vacuumed: 0, dead: 300 });

    await vi.advanceTimersByTimeAsync(100);
    await waitFor(async () => (await upkeepOf('upkeep_small')).analyzed > 0);
    expect(await upkeepOf('upkeep_small')).toEqual({ analyzed: 1, vacuumed: 0, dead: 300 });
    expect(await upkeepOf('upkeep_big')).toMatchObject({ analyzed: 1 });

    // Small now at its ANALYZE, unchanged since: the next looks leave it.
    await vi.advanceTimersByTimeAsync(54_000);
    await pause(500);
    expect(await upkeepOf('upkeep_small')).toEqual({ analyzed: 1, vacuumed: 0, dead: 300 });
    expect(await upkeepOf('upkeep_big')).toMatchObject({ analyzed: 1 });

    await vi.advanceTimersByTimeAsync(1_000);
    await waitFor(async () => (await upkeepOf('upkeep_small')).vacuumed > 0);
    expect(await upkeepOf('upkeep_small')).toEqual({ analyzed: 1, vacuumed: 1, dead: 0 });
    expect(await upkeepOf('upkeep_big')).toMatchObject({ analyzed: 2 });
  });
});
