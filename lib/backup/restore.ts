import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { encryptionKeyFingerprint } from '../crypto/secret-box';
import { FORMAT, FORMAT_VERSION, ident, migrationsBefore, type BackupHeader } from './format';

/** The database a backup is loaded into, inside one transaction that `load` opens. */
export type RestoreTarget = {
  /** Applies the migrations in `folder` (a prefix of this build's, up to the backup's schema). */
  migrate: (folder: string) => Promise<void>;
  /** Runs `fn` in one transaction; `query` takes `$n` parameters. */
  transaction: <T>(fn: (query: (text: string, params?: unknown[]) => Promise<unknown[]>) => Promise<T>) => Promise<T>;
};

export class RestoreRefused extends Error {
  name = 'RestoreRefused';
}

const BATCH = 1_000;

async function* linesOf(file: string): AsyncGenerator<string> {
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) if (line) yield line;
}

/** The backup's header, checked against this build (format, schema) and the environment's ENCRYPTION_KEY. */
export async function readHeader(file: string, migrationsFolder: string): Promise<BackupHeader> {
  let header: BackupHeader | undefined;
  for await (const line of linesOf(file)) {
    header = JSON.parse(line) as BackupHeader;
    break;
  }
  if (header?.format !== FORMAT) throw new RestoreRefused(`${file} is not a backup made by npm run db:backup.`);
  if (header.version !== FORMAT_VERSION)
    throw new RestoreRefused(`${file} is in backup format ${header.version}; this build reads ${FORMAT_VERSION}.`);
  migrationsBefore(migrationsFolder, header.schema);
  if (header.encryptionKeyFingerprint) {
    let current: string | null = null;
    try {
      current = encryptionKeyFingerprint();
    } catch {
      current = null;
    }
    if (current !== header.encryptionKeyFingerprint)
      throw new RestoreRefused(
        `The backup's secrets are sealed under the encryption key ${header.encryptionKeyFingerprint}, but ` +
          (current ? `ENCRYPTION_KEY is ${current}` : 'no ENCRYPTION_KEY is set') +
          '. Set ENCRYPTION_KEY to the key the backup was made under.',
      );
  }
  return header;
}

/**
 * Loads the rows of `file` into `target`, whose schema is already at the backup's version, in one
 * transaction that also checks every table's count against the header: all of it, or nothing.
 */
export async function loadRows(file: string, backup: BackupHeader, target: RestoreTarget): Promise<number> {
  return target.transaction(async (query) => {
    const tables = Object.keys(backup.tables);
    // Migrations may have written rows (a chain head per organization), and triggers would write more.
    for (const table of [...tables].reverse()) await query(`delete from ${ident(table)}`);
    for (const table of tables) await query(`alter table ${ident(table)} disable trigger user`);
    // Each table's columns but the generated ones (a silence's search text): those are computed, never inserted.
    const insertedColumns = new Map<string, string>();
    for (const table of tables) {
      const columns = (await query(
        `select attname from pg_attribute where attrelid = $1::regclass and attnum > 0 and not attisdropped
           and attgenerated = '' order by attnum`,
        [ident(table)],
      )) as { attname: string }[];
      insertedColumns.set(table, columns.map((c) => ident(c.attname)).join(', '));
    }
    const batch = { table: '', rows: [] as string[] };
    const flush = async () => {
      if (!batch.rows.length) return;
      const t = ident(batch.table);
      const columns = insertedColumns.get(batch.table);
      await query(
        `insert into ${t} (${columns}) select ${columns} from jsonb_populate_recordset(null::${t}, $1::jsonb)`,
        [`[${batch.rows.join(',')}]`],
      );
      batch.rows = [];
    };
    let total = 0;
    let end: number | null = null;
    let header = true;
    for await (const line of linesOf(file)) {
      if (header) {
        header = false;
        continue;
      }
      if (line.startsWith('{"end":')) {
        end = (JSON.parse(line) as { end: number }).end;
        break;
      }
      total++;
      const table = JSON.parse(line.slice(line.indexOf('"t":') + 4, line.indexOf(',"r":'))) as string;
      if (!(table in backup.tables))
        throw new RestoreRefused(`The backup has rows of a table it does not list: ${table}.`);
      if (batch.table !== table) {
        await flush();
        batch.table = table;
      }
      batch.rows.push(line.slice(line.indexOf(',"r":') + 5, -1));
      if (batch.rows.length >= BATCH) await flush();
    }
    await flush();
    if (end === null || end !== total)
      throw new RestoreRefused('The backup file is incomplete (cut off before its end); nothing was restored.');
    for (const table of tables) {
      await query(`alter table ${ident(table)} enable trigger user`);
      const [row] = (await query(`select count(*)::int as n from ${ident(table)}`)) as { n: number }[];
      if (row.n !== backup.tables[table])
        throw new RestoreRefused(
          `${table} holds ${row.n} rows after loading, the backup says ${backup.tables[table]}.`,
        );
    }
    return total;
  });
}
