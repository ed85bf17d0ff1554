// npm run db:restore -- FILE: loads a backup into the empty database DATABASE_URL or DATA_DIR names.
import './settings-first';
import path from 'node:path';
import { restore } from '../lib/backup/commands';
import { directDatabaseUrl } from '../lib/db/pooler';

const file = process.argv[2];
if (!file) {
  console.error('usage: npm run db:restore -- FILE');
  process.exit(2);
}
const started = performance.now();
try {
  const { rows, header } = await restore(path.resolve(file), {
    // One server session throughout (a snapshot, a restore's transaction): never through a transaction pooler.
    databaseUrl: directDatabaseUrl(),
    dataDir: path.resolve(process.env.DATA_DIR ?? './data'),
    migrationsFolder: path.join(process.cwd(), 'drizzle'),
  });
  console.log(
    `Restored ${rows} rows (backup of ${header.createdAt}, schema ${header.schema.last}) in ` +
      `${Math.round(performance.now() - started)} ms; row counts and every audit chain verified.`,
  );
  process.exit(0);
} catch (err) {
  console.error(`Restore refused: ${(err as Error).message}`);
  process.exit(1);
}
