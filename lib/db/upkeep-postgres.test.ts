import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from './client';
import { scratchPostgres } from '../../server/testing/test-database';

// The small tables' pass on PostgreSQL, as the app schedules it (lib/db/client.ts): every second, a table that was
// small at its last ANALYZE and grew since is analyzed, so a plan a session keeps is made again from its new size.
// Each table here has autovacuum off: only the app's pass may analyze it.
const postgres = await scratchPostgres('upkeep_pg');

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!postgres.reachable)('the upkeep on PostgreSQL, open in the app', () => {
  postgres.use();
  /** A session of the test's own on the scratch database, outside the app's pools. */
  const connected = async () => {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    return client;
  };
  let session: pg.Client;
  beforeAll(async () => {
    session = await connected();
  });
  afterAll(() => session.end());

  async function figures(table: string) {
    await session.query('select pg_stat_force_next_flush()');
    const { rows } = await session.query(
      `select seq_scan::int as "seqScans", idx_scan::int as "indexScans", analyze_count::int as analyzed
       from pg_stat_user_tables where relname = $1`,
      [table],
    );
    return rows[0] as { seqScans: number; indexScans: number; analyzed: number };
  }

  async function untilAnalyzed(table: string, times: number) {
    for (let waited = 0; waited < 15_000 && (await figures(table)).analyzed < times; waited += 100) await pause(100);
    return (await figures(table)).analyzed;
  }

  async function grownTable(name: string) {
    const db = await getDb();
    await db.execute(sql.raw(`create table ${name} (id int primary key, note text) with (autovacuum_enabled = false)`));
    await db.execute(sql.raw(`analyze ${name}`));
    return {
      grow: () => db.execute(sql.raw(`insert into ${name} select n, 'a' from generate_series(1, 5000) n`)),
    };
  }

  it('a generic plan a session made while a table was empty is made again once the table grew', async () => {
    const table = await grownTable('upkeep_grown');
    await session.query(`create function upkeep_find(p int) returns bigint language plpgsql
      set plan_cache_mode = force_generic_plan
      as $$ begin return (select count(*) from upkeep_grown where id = p); end $$`);
    // Made on the empty table: a sequential scan, kept by the session.
    await session.query('select upkeep_find(1)');
    const empty = await figures('upkeep_grown');
    expect(empty).toMatchObject({ seqScans: 1, analyzed: 1 });

    await table.grow();
    expect(await untilAnalyzed('upkeep_grown', 2)).toBe(2);
    await session.query('select upkeep_find(1)');
    // Made again, from the table's new size: its index.
    expect((await figures('upkeep_grown')).indexScans).toBe(empty.indexScans + 1);
  });

  it('a table whose lock another session holds is left to it; the pass goes on to the others', async () => {
    const held = await grownTable('upkeep_held');
    const free = await grownTable('upkeep_free');
    const holder = await connected();
    try {
      await holder.query('begin');
      // What an ANALYZE or a VACUUM of the table holds.
      await holder.query('lock table upkeep_held in share update exclusive mode');
      await held.grow();
      await free.grow();
      expect(await untilAnalyzed('upkeep_free', 2)).toBe(2);
      // Passes went by while it was held (each waits at most 100 ms for the lock).
      await pause(2_500);
      expect((await figures('upkeep_held')).analyzed).toBe(1);
      await holder.query('rollback');
      expect(await untilAnalyzed('upkeep_held', 2)).toBe(2);
    } finally {
      await holder.end();
    }
  });
});
