import { readFileSync } from 'node:fs';
import path from 'node:path';
import { settings } from '../settings/settings';

/** Runs one statement on the database being opened, before it is migrated. */
type Query = (text: string) => Promise<{ rows: unknown[] }>;

/** This build's schema: how many migrations it knows and the newest one's name. */
export function buildSchema(migrationsFolder: string): { migrations: number; last: string } {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  return { migrations: journal.entries.length, last: journal.entries.at(-1)?.tag ?? 'none' };
}

/** A database that took a contract step this build does not know: serving it could corrupt it. */
export class SchemaFloorError extends Error {}

/**
 * Refuses, before anything is migrated or written, a database whose floor (drizzle.schema_floor, raised by a
 * contract migration) is above the number of migrations this build knows. A database without the table (older
 * than migration 0013) or below the floor's value serves as before: the release before this one keeps starting.
 */
export async function assertBuildCanServe(query: Query, migrationsFolder: string): Promise<void> {
  const present = await query(`select to_regclass('drizzle.schema_floor') is not null as "present"`);
  if (!(present.rows[0] as { present: boolean }).present) return;
  const floor = await query(`select "min_schema", "raised_by" from "drizzle"."schema_floor" where "id" = 1`);
  const row = floor.rows[0] as { min_schema: number; raised_by: string | null } | undefined;
  const build = buildSchema(migrationsFolder);
  if (!row || row.min_schema <= build.migrations) return;
  const applied = await query(`select count(*)::int as "n" from "drizzle"."__drizzle_migrations"`);
  const databaseMigrations = (applied.rows[0] as { n: number }).n;
  throw new SchemaFloorError(
    `This build (svc ${settings().SVC_VERSION}, schema ${build.migrations}: migrations up to ` +
      `${build.last}) cannot serve this database (schema ${databaseMigrations}): migration ${row.raised_by ?? '?'} ` +
      `removed what builds before schema ${row.min_schema} use. Start a build of schema ${row.min_schema} or ` +
      'newer; nothing was changed.',
  );
}
