import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { closeDb, getDb } from './client';

/**
 * For a unit test file: its own embedded database in a temporary folder, without demo data, opened and
 * migrated once before the file's tests (the slow part, under the hook's longer timeout) and removed after.
 */
export function withEmptyEmbeddedDatabase(name: string): void {
  const dir = mkdtempSync(path.join(os.tmpdir(), `svc-${name}-`));
  beforeAll(async () => {
    process.env.DATA_DIR = dir;
    process.env.SEED_DEMO = '0';
    delete process.env.DATABASE_URL;
    await getDb();
  }, 120_000);
  afterAll(async () => {
    await closeDb();
    rmSync(dir, { recursive: true, force: true });
    delete process.env.SEED_DEMO;
  });
}
