import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A backup is newline-delimited JSON, one object a line: the header, then `{"t": table, "r": row}` for every
 * row (the row as PostgreSQL's `to_jsonb` writes it), then `{"end": rows}` so a cut-off file is refused.
 */
export const FORMAT = 'svc-backup';
export const FORMAT_VERSION = 1;

export type SchemaVersion = { migrations: number; last: string; when: number };

export type BackupHeader = {
  format: typeof FORMAT;
  version: typeof FORMAT_VERSION;
  createdAt: string;
  source: 'pglite' | 'postgres';
  schema: SchemaVersion;
  /** The fingerprint of the ENCRYPTION_KEY sealed secrets in the file were sealed under; null when none was set. */
  encryptionKeyFingerprint: string | null;
  /** Rows per table, in the order a restore loads them (parents before the tables that refer to them). */
  tables: Record<string, number>;
};

type Journal = { entries: { idx: number; when: number; tag: string }[] };

export function readJournal(folder: string): Journal['entries'] {
  const journal = JSON.parse(readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as Journal;
  return [...journal.entries].sort((a, b) => a.idx - b.idx);
}

/** The schema version of a database that has applied `applied` migrations (drizzle's `created_at` = `when`). */
export function schemaVersionOf(folder: string, applied: number[]): SchemaVersion {
  const entries = readJournal(folder);
  const newest = Math.max(...applied);
  const entry = entries.find((e) => e.when === newest);
  return { migrations: applied.length, last: entry?.tag ?? `unknown (${newest})`, when: newest };
}

/**
 * How a backup's schema stands to this build's migrations: the number of migrations to apply before loading
 * it, or a refusal naming both versions when the backup comes from a newer build.
 */
export function migrationsBefore(folder: string, schema: SchemaVersion): number {
  const entries = readJournal(folder);
  const at = entries.findIndex((e) => e.when === schema.when && e.tag === schema.last);
  if (at < 0 || at + 1 !== schema.migrations)
    throw new Error(
      `This backup was written by a newer build (schema ${schema.last}, ${schema.migrations} migrations); ` +
        `this build knows up to ${entries.at(-1)?.tag} (${entries.length} migrations). Restore it with that build or newer.`,
    );
  return schema.migrations;
}

/** A copy of the migrations folder whose journal stops after the first `count` migrations. */
export function migrationsUpTo(folder: string, count: number): string {
  const copy = mkdtempSync(path.join(os.tmpdir(), 'svc-migrations-'));
  cpSync(folder, copy, { recursive: true });
  const journalFile = path.join(copy, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as Journal;
  journal.entries = readJournal(folder).slice(0, count);
  writeFileSync(journalFile, JSON.stringify(journal));
  return copy;
}

/** Tables ordered so that every table comes after the tables its foreign keys name. */
export function loadOrder(tables: string[], references: { from: string; to: string }[]): string[] {
  const ordered: string[] = [];
  const visiting = new Set<string>();
  const visit = (table: string) => {
    if (ordered.includes(table) || visiting.has(table)) return;
    visiting.add(table);
    for (const ref of references) if (ref.from === table && ref.to !== table) visit(ref.to);
    ordered.push(table);
  };
  for (const table of [...tables].sort()) visit(table);
  return ordered;
}

/** The statements that list a database's tables and their foreign keys (public schema). */
export const TABLES_SQL = `select table_name as name from information_schema.tables
  where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`;
export const REFERENCES_SQL = `select c.conrelid::regclass::text as "from", c.confrelid::regclass::text as "to"
  from pg_constraint c join pg_namespace n on n.oid = c.connamespace
  where c.contype = 'f' and n.nspname = 'public'`;
export const APPLIED_SQL = `select created_at::text as "when" from drizzle.__drizzle_migrations order by created_at`;

/** A table name as an identifier: only names read from the catalog reach here, quoted all the same. */
export const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
