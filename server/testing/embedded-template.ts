// Vitest's global set-up (vitest.config.ts): one embedded database, migrated once per run, that each test file's
// empty database starts as a copy of (`withEmptyEmbeddedDatabase`). A fresh database's initdb and migrations take
// about 3 of the 4.2 s it takes to open; a copy of the migrated folder (41 MB) takes under a second, and opening it
// still runs the migrator, which finds nothing to do. The template is made the way a start makes a database: a
// migration that breaks fails the run here, before any test.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated embedded database's folder (its `pglite` folder is what a file copies). */
    embeddedTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-template-'));
  const saved = ['DATA_DIR', 'SEED_DEMO', 'DATABASE_URL'].map((name) => [name, process.env[name]] as const);
  process.env.DATA_DIR = dir;
  process.env.SEED_DEMO = '0';
  delete process.env.DATABASE_URL;
  const { closeDb, getDb } = await import('../../lib/db/client');
  await getDb();
  await closeDb();
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  project.provide('embeddedTemplate', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
