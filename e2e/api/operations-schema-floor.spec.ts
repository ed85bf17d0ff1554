import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { expect, test } from '../fixtures';
import { E2E } from '../support/env';
import { spawnServer } from '../support/spawn-server';

type Query = (text: string) => Promise<{ rows: unknown[] }>;

const PORT = E2E.port + 53;
const journal = JSON.parse(readFileSync(path.join(process.cwd(), 'drizzle/meta/_journal.json'), 'utf8')) as {
  entries: { tag: string }[];
};
const known = journal.entries.length;

/** A database of this test's own, embedded or (DATABASE_URL) on PostgreSQL, and a session on it between starts. */
async function ownDatabase(): Promise<{
  env: Record<string, string>;
  open: <T>(fn: (query: Query) => Promise<T>) => Promise<T>;
  drop: () => Promise<void>;
}> {
  if (!process.env.DATABASE_URL) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-floor-'));
    return {
      env: { DATA_DIR: dir },
      open: async <T>(fn: (query: Query) => Promise<T>) => {
        const db = new PGlite(path.join(dir, 'pglite'), { extensions: { pg_trgm } });
        try {
          return await fn((text) => db.query(text));
        } finally {
          await db.close();
        }
      },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const database = `svc_e2e_floor_${process.pid}`;
  const url = (name: string) => Object.assign(new URL(process.env.DATABASE_URL!), { pathname: `/${name}` }).href;
  const admin = new pg.Client({ connectionString: url('postgres') });
  await admin.connect();
  await admin.query(`drop database if exists ${database} with (force)`);
  await admin.query(`create database ${database}`);
  return {
    env: { DATABASE_URL: url(database) },
    open: async <T>(fn: (query: Query) => Promise<T>) => {
      const client = new pg.Client({ connectionString: url(database) });
      await client.connect();
      try {
        return await fn((text) => client.query(text));
      } finally {
        await client.end();
      }
    },
    drop: async () => {
      await admin.query(`drop database if exists ${database} with (force)`);
      await admin.end();
    },
  };
}

test.describe('the schema floor: a build refuses a database contracted past it', () => {
  test.describe.configure({ timeout: 180_000 });

  test('the process exits non-zero naming both schemas and changes nothing; at the floor it starts', async () => {
    const db = await ownDatabase();
    try {
      const first = await spawnServer(PORT, db.env);
      await first.stop();
      const state = (query: Query) =>
        Promise.all([
          query('select count(*)::int as n from drizzle.__drizzle_migrations'),
          query('select min_schema, raised_by from drizzle.schema_floor'),
        ]).then(([applied, floor]) => ({ applied: applied.rows, floor: floor.rows }));
      // As a later release's contract migration would leave it: two more migrations, the floor past this build.
      const contracted = await db.open(async (query) => {
        await query(`insert into drizzle.__drizzle_migrations (hash, created_at) values ('a', 1), ('b', 2)`);
        await query(`update drizzle.schema_floor set min_schema = ${known + 1}, raised_by = '00${known + 2}_drop_x'`);
        return state(query);
      });
      expect(contracted.floor).toEqual([{ min_schema: known + 1, raised_by: `00${known + 2}_drop_x` }]);

      const refused = spawnServer(PORT, db.env);
      await expect(refused).rejects.toThrow(/^server on \d+ exited 1:/);
      await expect(refused).rejects.toThrow(
        `This build (svc 0.1.0, schema ${known}: migrations up to ${journal.entries.at(-1)!.tag}) cannot serve ` +
          `this database (schema ${known + 2}): migration 00${known + 2}_drop_x removed what builds before ` +
          `schema ${known + 1} use. Start a build of schema ${known + 1} or newer; nothing was changed.`,
      );
      expect(await db.open(state)).toEqual(contracted);

      // A floor this build reaches (the release before the contract step, say) serves as usual.
      await db.open((query) => query(`update drizzle.schema_floor set min_schema = ${known}`));
      const served = await spawnServer(PORT, db.env);
      expect((await fetch(`${served.url}/v1/health`)).status).toBe(200);
      await served.stop();
    } finally {
      await db.drop();
    }
  });
});
