import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { bearer, expect, sessionFor, test } from '../fixtures';
import { createKey } from '../support/api-keys';
import { E2E } from '../support/env';
import { spawnServer } from '../support/spawn-server';

// The PostgreSQL server: the one DATABASE_URL names in the PostgreSQL run.
const PG_BASE =
  process.env.PGURL_BASE ??
  (process.env.DATABASE_URL
    ? Object.assign(new URL(process.env.DATABASE_URL), { pathname: '' }).href.replace(/\/$/, '')
    : 'postgres://postgres@127.0.0.1:5432');

/** Runs `npm run db:<command> -- FILE` as an operator would, with the environment naming the database. */
function dbCommand(command: 'backup' | 'restore', file: string, env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const rest = { ...process.env };
    delete rest.DATABASE_URL;
    const child = spawn(process.execPath, ['node_modules/.bin/tsx', `scripts/db-${command}.ts`, file], {
      env: { ...rest, SEED_DEMO: '0', ...env },
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

type Source = {
  /** The source server's environment: a DATA_DIR, or a PostgreSQL database of the test's own. */
  env: Record<string, string>;
  /** What the backup command says of the source. */
  says: RegExp;
  /** The ENCRYPTION_KEY the source server ran under (recorded in the backup, needed by a restore). */
  encryptionKey: () => string;
};

/**
 * Writes through HTTP while `db:backup` runs (none may fail), then restores the file into an empty PostgreSQL
 * database and an empty DATA_DIR, refuses to restore into either again, and starts a server on each: the key made
 * before the backup authenticates and Acme's audit chain verifies.
 */
async function backupUnderWritesThenRestore(source: Source, file: string, embeddedTarget: string, database: string) {
  const server = await spawnServer(E2E.port + 50, { ...source.env, SEED_DEMO: '1' });
  let secret: string;
  let orgId: string;
  try {
    const ada = await sessionFor('ada', server.url);
    const orgs = (await (await ada.get('/v1/organizations')).json()) as { items: { id: string; name: string }[] };
    orgId = orgs.items.find((o) => o.name === 'Acme')!.id;
    ({ secret } = await createKey(ada, orgId, { name: 'before backup' }));

    let writing = true;
    const statuses: number[] = [];
    const writes = (async () => {
      for (let i = 0; writing; i++) {
        const res = await ada.post(`/v1/organizations/${orgId}/api-keys`, { data: { name: `during ${i}` } });
        statuses.push(res.status());
      }
    })();
    // An operator's backup runs under the key the database's secrets are sealed with, as the server does.
    const backup = await dbCommand('backup', file, { ...source.env, ENCRYPTION_KEY: source.encryptionKey() });
    writing = false;
    await writes;
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toMatch(source.says);
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s !== 201)).toEqual([]);
    await ada.dispose();
  } finally {
    await server.stop();
  }

  // The backup records the source's key fingerprint: a restore needs that key (a wrong one is refused).
  const ENCRYPTION_KEY = source.encryptionKey();
  const intoPostgres = await dbCommand('restore', file, { DATABASE_URL: `${PG_BASE}/${database}`, ENCRYPTION_KEY });
  expect(intoPostgres.code, intoPostgres.output).toBe(0);
  const intoEmbedded = await dbCommand('restore', file, { DATA_DIR: embeddedTarget, ENCRYPTION_KEY });
  expect(intoEmbedded.code, intoEmbedded.output).toBe(0);

  // DATABASE_URL empty: the embedded database, even in the PostgreSQL run.
  for (const env of [
    { DATABASE_URL: `${PG_BASE}/${database}` },
    { DATABASE_URL: '', DATA_DIR: embeddedTarget },
  ] as Record<string, string>[]) {
    const again = await dbCommand('restore', file, { ...env, ENCRYPTION_KEY });
    expect(again.code).toBe(1);
    expect(again.output).toMatch(/already holds/);
    const restored = await spawnServer(E2E.port + 51, env);
    try {
      const key = await bearer(secret, restored.url);
      expect((await key.get('/v1/organizations')).status()).toBe(200);
      await key.dispose();
      const owner = await sessionFor('ada', restored.url);
      const verify = await owner.get(`/v1/organizations/${orgId}/audit-events/verify`);
      expect(await verify.json()).toMatchObject({ firstBrokenSeq: null });
      await owner.dispose();
    } finally {
      await restored.stop();
    }
  }
}

async function newDatabase(admin: pg.Client, name: string) {
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
}

test('on PostgreSQL, db:backup and db:restore refuse without ENCRYPTION_KEY before they touch anything', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-backup-'));
  try {
    // An address nothing listens on: the refusal comes before any connection.
    const env = { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', ENCRYPTION_KEY: '', DATA_DIR: dir };
    const file = path.join(dir, 'backup.ndjson');
    for (const command of ['backup', 'restore'] as const) {
      const { code, output } = await dbCommand(command, file, env);
      expect(code, output).toBe(1);
      expect(output).toContain('ENCRYPTION_KEY is not set. On PostgreSQL (DATABASE_URL) every instance');
      expect(output).not.toMatch(/ECONNREFUSED/);
    }
    expect(readdirSync(dir)).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.describe('backup under writes, restore into either kind of empty database', () => {
  test.describe.configure({ timeout: 600_000 });

  test('from the embedded database: no write fails during the backup; both restores have the keys, whose secrets work, and a verified chain', async () => {
    test.skip(!!process.env.DATABASE_URL, 'the PostgreSQL run backs up a PostgreSQL database');
    const dirs = [0, 1, 2].map(() => mkdtempSync(path.join(os.tmpdir(), 'svc-backup-')));
    const database = `svc_e2e_restore_${process.pid}`;
    const admin = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
    await admin.connect();
    await newDatabase(admin, database);
    try {
      await backupUnderWritesThenRestore(
        {
          env: { DATA_DIR: dirs[1] },
          says: /from pglite .*writes waited at most for the server's \d+ ms copy/,
          encryptionKey: () => E2E.encryptionKey, // spawnServer's, so no key file is generated
        },
        path.join(dirs[0], 'backup.ndjson'),
        dirs[2],
        database,
      );
    } finally {
      await admin.query(`drop database if exists ${database} with (force)`);
      await admin.end();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  });

  test('from PostgreSQL: no write fails during the backup; both restores have the keys, whose secrets work, and a verified chain', async () => {
    test.skip(!process.env.DATABASE_URL, 'runs in the PostgreSQL run (DATABASE_URL)');
    const dirs = [0, 1].map(() => mkdtempSync(path.join(os.tmpdir(), 'svc-backup-')));
    const source = `svc_e2e_backup_source_${process.pid}`;
    const database = `svc_e2e_restore_${process.pid}`;
    const admin = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
    await admin.connect();
    await newDatabase(admin, source);
    await newDatabase(admin, database);
    try {
      await backupUnderWritesThenRestore(
        {
          env: { DATABASE_URL: `${PG_BASE}/${source}` },
          says: /from postgres /,
          encryptionKey: () => E2E.encryptionKey,
        },
        path.join(dirs[0], 'backup.ndjson'),
        dirs[1],
        database,
      );
    } finally {
      for (const name of [source, database]) await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  });
});
