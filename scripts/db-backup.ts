// npm run db:backup -- FILE: a consistent backup of the database DATABASE_URL or DATA_DIR names (DATABASE_DIRECT_URL
// first; docs/recover.md).
import './settings-first';
import path from 'node:path';
import { backup } from '../lib/backup/commands';
import { directDatabaseUrl } from '../lib/db/pooler';

const file = process.argv[2];
if (!file) {
  console.error('usage: npm run db:backup -- FILE');
  process.exit(2);
}
const started = performance.now();
try {
  const header = await backup(path.resolve(file), {
    // One server session throughout (a snapshot, a restore's transaction): never through a transaction pooler.
    databaseUrl: directDatabaseUrl(),
    dataDir: path.resolve(process.env.DATA_DIR ?? './data'),
    migrationsFolder: path.join(process.cwd(), 'drizzle'),
  });
  const rows = Object.values(header.tables).reduce((a, b) => a + b, 0);
  console.log(
    `Backed up ${rows} rows of ${Object.keys(header.tables).length} tables (schema ${header.schema.last}) ` +
      `from ${header.source} to ${file} in ${Math.round(performance.now() - started)} ms` +
      (header.pauseMs === undefined
        ? '.'
        : `; writes waited at most for the server's ${header.pauseMs} ms copy (its last pass; ${header.copyMs} ms in all).`),
  );
  process.exit(0);
} catch (err) {
  console.error(`Backup failed: ${(err as Error).message}`);
  process.exit(1);
}
