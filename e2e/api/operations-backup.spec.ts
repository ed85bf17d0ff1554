import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { bearer, expect, sessionFor, test } from '../fixtures';
import { createKey } from '../support/api-keys';
import { E2E } from '../support/env';
import { spawnServer } from '../support/spawn-server';

const PG_BASE = process.env.PGURL_BASE ?? 'postgres://postgres@127.0.0.1:5432';

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

test.describe('backup under writes, restore into either kind of empty database', () => {
  test.skip(!!process.env.DATABASE_URL, 'one run covers both kinds: it makes its own PostgreSQL database');
  test.describe.configure({ timeout: 600_000 });

  test('no write fails during the backup; the restored database has the keys, whose secrets work, and a verified chain', async () => {
    const dirs = [0, 1, 2].map(() => mkdtempSync(path.join(os.tmpdir(), 'svc-backup-')));
    const file = path.join(dirs[0], 'backup.ndjson');
    const database = `svc_e2e_restore_${process.pid}`;
    const admin = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
    await admin.connect();
    await admin.query(`drop database if exists ${database}`);
    await admin.query(`create database ${database}`);
    const source = await spawnServer(E2E.port + 50, { DATA_DIR: dirs[1], SEED_DEMO: '1' });
    try {
      const ada = await sessionFor('ada', source.url);
      const orgs = (await (await ada.get('/v1/organizations')).json()) as { items: { id: string; name: string }[] };
      const orgId = orgs.items.find((o) => o.name === 'Acme')!.id;
      const { secret } = await createKey(ada, orgId, { name: 'before backup' });

      let writing = true;
      const statuses: number[] = [];
      const writes = (async () => {
        for (let i = 0; writing; i++) {
          const res = await ada.post(`/v1/organizations/${orgId}/api-keys`, { data: { name: `during ${i}` } });
          statuses.push(res.status());
        }
      })();
      const backup = await dbCommand('backup', file, { DATA_DIR: dirs[1] });
      writing = false;
      await writes;
      expect(backup.code, backup.output).toBe(0);
      expect(backup.output).toMatch(/from pglite .*writes waited at most for the server's \d+ ms copy/);
      expect(statuses.length).toBeGreaterThan(0);
      expect(statuses.filter((s) => s !== 201)).toEqual([]);
      await ada.dispose();

      // The backup records the source's key fingerprint: a restore needs that key (a wrong one is refused).
      const ENCRYPTION_KEY = E2E.encryptionKey;
      const intoPostgres = await dbCommand('restore', file, { DATABASE_URL: `${PG_BASE}/${database}`, ENCRYPTION_KEY });
      expect(intoPostgres.code, intoPostgres.output).toBe(0);
      const intoEmbedded = await dbCommand('restore', file, { DATA_DIR: dirs[2], ENCRYPTION_KEY });
      expect(intoEmbedded.code, intoEmbedded.output).toBe(0);

      for (const env of [{ DATABASE_URL: `${PG_BASE}/${database}` }, { DATA_DIR: dirs[2] }] as Record<
        string,
        string
      >[]) {
        const again = await dbCommand('restore', file, env);
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
    } finally {
      await source.stop();
      await admin.query(`drop database if exists ${database} with (force)`);
      await admin.end();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  });
});
