import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { encryptionKeyFingerprint } from '../crypto/secret-box';
import {
  APPLIED_SQL,
  FORMAT,
  FORMAT_VERSION,
  REFERENCES_SQL,
  TABLES_SQL,
  ident,
  loadOrder,
  schemaVersionOf,
  type BackupHeader,
} from './format';

/** One consistent view of a database: its statements all see the same snapshot. */
export type SnapshotReader = {
  source: BackupHeader['source'];
  query: <R>(text: string) => Promise<R[]>;
  /** Each row of the table as JSON text, in batches, so a large table is never held whole. */
  rows: (table: string, each: (json: string) => Promise<void>) => Promise<void>;
};

function fingerprint(): string | null {
  try {
    return encryptionKeyFingerprint();
  } catch {
    return null; // no key anywhere: nothing can have been sealed
  }
}

/** Writes the backup of what `reader` sees into `file` (through `file.partial`, renamed when complete). */
export async function writeBackup(
  reader: SnapshotReader,
  file: string,
  migrationsFolder: string,
): Promise<BackupHeader> {
  const tables = (await reader.query<{ name: string }>(TABLES_SQL)).map((r) => r.name);
  const order = loadOrder(tables, await reader.query<{ from: string; to: string }>(REFERENCES_SQL));
  const applied = (await reader.query<{ when: string }>(APPLIED_SQL)).map((r) => Number(r.when));
  const counts: Record<string, number> = {};
  for (const table of order)
    counts[table] = Number((await reader.query<{ n: string }>(`select count(*)::text as n from ${ident(table)}`))[0].n);
  const header: BackupHeader = {
    format: FORMAT,
    version: FORMAT_VERSION,
    createdAt: new Date().toISOString(),
    source: reader.source,
    schema: schemaVersionOf(migrationsFolder, applied),
    encryptionKeyFingerprint: fingerprint(),
    tables: counts,
  };
  const partial = `${file}.partial`;
  const out = createWriteStream(partial, { mode: 0o600 });
  const write = async (line: string) => {
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  };
  try {
    await write(JSON.stringify(header));
    let total = 0;
    for (const table of order) {
      const prefix = `{"t":${JSON.stringify(table)},"r":`;
      await reader.rows(table, async (json) => {
        total++;
        await write(`${prefix}${json}}`);
      });
    }
    await write(JSON.stringify({ end: total }));
    out.end();
    await once(out, 'finish');
    renameSync(partial, file);
  } catch (err) {
    out.destroy();
    rmSync(partial, { force: true });
    throw err;
  }
  return header;
}
