import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { requireSharedEncryptionKey } from '../crypto/secret-box';
import { lockDataDir } from '../db/data-dir-lock';
import { writeBackup, type SnapshotReader } from './export';
import { loadRows, readHeader, RestoreRefused } from './restore';
import { migrationsBefore, migrationsUpTo, type BackupHeader } from './format';
import {
  askServerForSnapshot,
  embeddedIsEmpty,
  pgliteReader,
  pgliteTarget,
  postgresIsEmpty,
  postgresReader,
  postgresTarget,
  removeSnapshot,
} from './sources';

export type Where = { databaseUrl?: string; dataDir: string; migrationsFolder: string };

/** PGlite as the server opens it (lib/db/pglite-worker.mjs): migration 0010 creates pg_trgm, which must be loadable. */
async function openPglite(dir: string) {
  const [{ PGlite }, { pg_trgm }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
  ]);
  const db = new PGlite(dir, { extensions: { pg_trgm } });
  await db.waitReady;
  return db;
}

/** `npm run db:backup -- FILE`: PostgreSQL from a snapshot transaction; the embedded database through its server. */
export async function backup(
  file: string,
  where: Where,
): Promise<BackupHeader & { pauseMs?: number; copyMs?: number }> {
  const run = (reader: SnapshotReader) => writeBackup(reader, file, where.migrationsFolder);
  requireSharedEncryptionKey(Boolean(where.databaseUrl));
  if (where.databaseUrl) {
    const client = new pg.Client({ connectionString: where.databaseUrl, application_name: 'svc-backup' });
    await client.connect();
    try {
      return await run(await postgresReader(client));
    } finally {
      await client.end();
    }
  }
  const snapshot = await askServerForSnapshot(where.dataDir);
  if (snapshot) {
    try {
      const db = await openPglite(snapshot.dir);
      try {
        return { ...(await run(pgliteReader(db))), pauseMs: snapshot.heldMs, copyMs: snapshot.ms };
      } finally {
        await db.close();
      }
    } finally {
      removeSnapshot(snapshot.dir);
    }
  }
  // No server runs on it: hold the lock, so none starts meanwhile, and read the directory itself.
  const release = await lockDataDir(where.dataDir);
  try {
    const db = await openPglite(path.join(where.dataDir, 'pglite'));
    try {
      return await run(pgliteReader(db));
    } finally {
      await db.close();
    }
  } finally {
    await release();
  }
}

/**
 * `npm run db:restore -- FILE` into an empty database: migrates it to the backup's schema, loads every row in
 * one transaction that checks the counts, then opens it as the app does (the remaining migrations) and
 * verifies every organization's audit chain. A failure after loading empties the database again.
 */
export async function restore(file: string, where: Where): Promise<{ rows: number; header: BackupHeader }> {
  requireSharedEncryptionKey(Boolean(where.databaseUrl));
  const header = await readHeader(file, where.migrationsFolder);
  const prefix = migrationsUpTo(where.migrationsFolder, migrationsBefore(where.migrationsFolder, header.schema));
  try {
    if (where.databaseUrl) return await restorePostgres(file, header, prefix, where);
    return await restoreEmbedded(file, header, prefix, where);
  } finally {
    rmSync(prefix, { recursive: true, force: true });
  }
}

async function restorePostgres(file: string, header: BackupHeader, prefix: string, where: Where) {
  const client = new pg.Client({ connectionString: where.databaseUrl, application_name: 'svc-restore' });
  await client.connect();
  let loaded = false;
  try {
    if (!(await postgresIsEmpty(client)))
      throw new RestoreRefused('The database DATABASE_URL names already holds tables; restore only into an empty one.');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    loaded = true;
    await migrate(drizzle({ client }), { migrationsFolder: prefix });
    const rows = await loadRows(
      file,
      header,
      postgresTarget(client, async () => {}),
    );
    await verifyAsTheAppOpensIt();
    return { rows, header };
  } catch (err) {
    if (loaded)
      await client.query('drop schema if exists drizzle cascade; drop schema public cascade; create schema public');
    throw err;
  } finally {
    await client.end();
  }
}

async function restoreEmbedded(file: string, header: BackupHeader, prefix: string, where: Where) {
  if (!embeddedIsEmpty(where.dataDir))
    throw new RestoreRefused(`${where.dataDir} already holds a database; restore only into an empty DATA_DIR.`);
  const pgdata = path.join(where.dataDir, 'pglite');
  mkdirSync(where.dataDir, { recursive: true });
  const release = await lockDataDir(where.dataDir);
  let loaded = false;
  try {
    loaded = true;
    const db = await openPglite(pgdata);
    try {
      const { drizzle } = await import('drizzle-orm/pglite');
      const { migrate } = await import('drizzle-orm/pglite/migrator');
      await migrate(drizzle({ client: db }), { migrationsFolder: prefix });
      const rows = await loadRows(
        file,
        header,
        pgliteTarget(db, async () => {}),
      );
      await db.close();
      await release();
      await verifyAsTheAppOpensIt();
      return { rows, header };
    } finally {
      if (!db.closed) await db.close();
    }
  } catch (err) {
    await release().catch(() => {});
    if (loaded) rmSync(pgdata, { recursive: true, force: true });
    throw err;
  }
}

/** Opens the database as the server does (the remaining migrations apply) and verifies every audit chain. */
async function verifyAsTheAppOpensIt(): Promise<void> {
  const { closeDb, getDb } = await import('../db/client');
  const { verifyAuditChain } = await import('../audit/verify');
  const t = await import('../db/schema');
  try {
    const orgs = await (await getDb()).select({ id: t.organizations.id }).from(t.organizations);
    for (const { id } of orgs) {
      const result = await verifyAuditChain(id);
      if (result.firstBrokenSeq !== null)
        throw new RestoreRefused(`The audit chain of organization ${id} breaks at seq ${result.firstBrokenSeq}.`);
    }
  } finally {
    await closeDb();
  }
}
