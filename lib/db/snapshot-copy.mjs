/**
 * Copies a live embedded database directory for a backup, in two passes: `copyTree` while it serves (files may
 * change meanwhile), then `syncTree` while the database is held still, which copies again only the files that
 * changed since (other mtime or size, or written after the first pass began) and removes those gone since.
 * So writes wait only for the second, short pass. Plain JavaScript: PGlite's thread (pglite-worker.mjs) runs it.
 */
import { copyFileSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import path from 'node:path';

export function copyTree(from, to) {
  return cp(from, to, { recursive: true, preserveTimestamps: true });
}

export function syncTree(from, to, since) {
  mkdirSync(to, { recursive: true });
  const present = new Set(readdirSync(from));
  for (const name of readdirSync(to)) if (!present.has(name)) rmSync(path.join(to, name), { recursive: true });
  for (const name of present) {
    const source = path.join(from, name);
    const target = path.join(to, name);
    const stat = statSync(source);
    if (stat.isDirectory()) {
      syncTree(source, target, since);
      continue;
    }
    let copied = null;
    try {
      copied = statSync(target);
    } catch {
      // not copied yet
    }
    if (copied && copied.size === stat.size && copied.mtimeMs === stat.mtimeMs && stat.mtimeMs < since) continue;
    copyFileSync(source, target);
    utimesSync(target, stat.atime, stat.mtime);
  }
}
