import { existsSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import type { SnapshotReader } from './export';
import type { RestoreTarget } from './restore';

const FETCH = 2_000;

/** A PostgreSQL snapshot: one REPEATABLE READ, READ ONLY transaction, which never blocks a writer. */
export async function postgresReader(client: pg.Client): Promise<SnapshotReader> {
  await client.query('begin isolation level repeatable read, read only');
  return {
    source: 'postgres',
    query: async <R>(text: string) => (await client.query(text)).rows as R[],
    rows: async (table, each) => {
      await client.query(`declare backup_rows no scroll cursor for select to_jsonb(t)::text as r from "${table}" t`);
      for (;;) {
        const { rows } = await client.query<{ r: string }>(`fetch ${FETCH} from backup_rows`);
        for (const row of rows) await each(row.r);
        if (rows.length < FETCH) break;
      }
      await client.query('close backup_rows');
    },
  };
}

/** An embedded database no server holds (a snapshot copy, or a stopped server's DATA_DIR). */
export function pgliteReader(db: PGlite): SnapshotReader {
  return {
    source: 'pglite',
    query: async <R>(text: string) => (await db.query<R>(text)).rows,
    rows: async (table, each) => {
      const { rows } = await db.query<{ r: string }>(`select to_jsonb(t)::text as r from "${table}" t`);
      for (const row of rows) await each(row.r);
    },
  };
}

/** Asks the server running on DATA_DIR for a consistent copy (lib/backup/service.ts); null when none runs. */
export function askServerForSnapshot(dataDir: string): Promise<{ dir: string; ms: number; heldMs: number } | null> {
  const socketPath = path.join(dataDir, 'admin.sock');
  if (!existsSync(socketPath)) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, path: '/admin/snapshot', method: 'POST' }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () =>
        res.statusCode === 200
          ? resolve(JSON.parse(body) as { dir: string; ms: number; heldMs: number })
          : reject(new Error(`The server on ${dataDir} refused the backup (${res.statusCode}): ${body}`)),
      );
    });
    // A socket left by a server that is gone: no one is serving, so the directory may be read directly.
    req.on('error', (err: NodeJS.ErrnoException) =>
      ['ECONNREFUSED', 'ENOENT'].includes(err.code ?? '') ? resolve(null) : reject(err),
    );
    req.end();
  });
}

export function removeSnapshot(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Whether an embedded DATA_DIR holds no database yet (missing, empty, or without its pglite folder's files). */
export function embeddedIsEmpty(dataDir: string): boolean {
  const pgdata = path.join(dataDir, 'pglite');
  return !existsSync(pgdata) || readdirSync(pgdata).length === 0;
}

export function pgliteTarget(db: PGlite, migrate: (folder: string) => Promise<void>): RestoreTarget {
  return {
    migrate,
    transaction: (fn) => db.transaction((tx) => fn(async (text, params) => (await tx.query(text, params)).rows)),
  };
}

export function postgresTarget(client: pg.Client, migrate: (folder: string) => Promise<void>): RestoreTarget {
  return {
    migrate,
    transaction: async (fn) => {
      await client.query('begin');
      try {
        const result = await fn(async (text, params) => (await client.query(text, params)).rows);
        await client.query('commit');
        return result;
      } catch (err) {
        await client.query('rollback').catch(() => {});
        throw err;
      }
    },
  };
}

/** Whether a PostgreSQL database holds nothing of this app's (no table in public or drizzle). */
export async function postgresIsEmpty(client: pg.Client): Promise<boolean> {
  const { rows } = await client.query<{ n: number }>(
    `select count(*)::int as n from information_schema.tables where table_schema in ('public', 'drizzle')`,
  );
  return rows[0].n === 0;
}
