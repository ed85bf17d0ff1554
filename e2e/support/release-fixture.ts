import path from 'node:path';

/**
 * The first release's database (commit 0f3dff3: migrations 0000-0002 and the rows that release wrote), kept as
 * SQL so that every later migration is tested on it (e2e/api/operations-upgrade.spec.ts). Written once by
 * scripts/release-fixture.ts; never edited by hand.
 */
export const RELEASE = '0f3dff3';
export const releaseSqlFile = path.join(process.cwd(), 'e2e', 'fixtures', `release-${RELEASE}.sql`);
/** The plaintext credentials behind the fixture's hashes (test data only). */
export const releaseSecretsFile = path.join(process.cwd(), 'e2e', 'fixtures', `release-${RELEASE}.json`);

export type ReleaseSecrets = {
  /** Unrevoked API keys, by owner: they must still authenticate after the upgrade. */
  keys: { ada: string; deployBot: string; gil: string };
  /** A key the release revoked: it must still be refused. */
  revokedKey: string;
  scimToken: string;
};

/** The first release's tables, parents before children. */
export const RELEASE_TABLES = [
  'policies',
  'organizations',
  'users',
  'projects',
  'memberships',
  'bots',
  'policy_bindings',
  'api_keys',
  'scim_tokens',
  'oauth_device_codes',
  'oauth_tokens',
  'idempotency_records',
  'subscriptions',
  'silences',
  'rate_limits',
] as const;

type Query = (text: string) => Promise<{ rows: unknown[] }>;
/** Every row of a table: its columns' text form (PostgreSQL's own cast), in column order. */
export type TableRows = { columns: string[]; rows: (string | null)[][] };

/** Session settings that make the text form of a timestamp the same on both databases. */
export const TEXT_SETTINGS = "set timezone to 'UTC'; set datestyle to 'ISO, YMD'; set intervalstyle to 'postgres'";

/** The columns a table has, in order. */
export async function columnsOf(query: Query, table: string): Promise<string[]> {
  const { rows } = await query(
    `select column_name as name from information_schema.columns where table_schema = 'public' and table_name = '${table}' order by ordinal_position`,
  );
  return (rows as { name: string }[]).map((r) => r.name);
}

/**
 * The rows of `table` as text, `columns` only (the release's columns: a later migration may add others), sorted,
 * so that two reads of the same rows compare equal. Run `TEXT_SETTINGS` on the session first.
 */
export async function readRows(query: Query, table: string, columns: string[]): Promise<TableRows> {
  const list = columns.map((c) => `"${c}"::text`).join(', ');
  const { rows } = await query(`select json_build_array(${list}) as r from "${table}"`);
  const values = (rows as { r: unknown }[]).map(
    (row) => (typeof row.r === 'string' ? JSON.parse(row.r) : row.r) as (string | null)[],
  );
  values.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  return { columns, rows: values };
}
