/**
 * Copies a live embedded database directory for a backup: `copyTree` while it serves (files may change
 * meanwhile), `syncTree` again while it serves, then `syncTree` while the database is held still. `syncTree`
 * visits only the files that changed since (other mtime or size, or written after the previous pass began),
 * removes those gone since, and rewrites only the 64 KiB blocks of a file that differ from the copy's: a table
 * that took a few rows changed a few pages, not the whole file. So writes wait only for the last, short pass.
 * Asynchronous throughout, so PGlite's thread (pglite-worker.mjs), which runs it, keeps answering statements
 * during the passes that do not hold it. Plain JavaScript.
 */
import { cp, copyFile, mkdir, open, readdir, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';

export function copyTree(from, to) {
  return cp(from, to, { recursive: true, preserveTimestamps: true });
}

export async function syncTree(from, to, since) {
  await mkdir(to, { recursive: true });
  const present = new Set(await readdir(from));
  for (const name of await readdir(to)) if (!present.has(name)) await rm(path.join(to, name), { recursive: true });
  for (const name of present) {
    const source = path.join(from, name);
    const target = path.join(to, name);
    let info;
    try {
      info = await stat(source);
    } catch {
      continue; // gone since the listing: a later pass removes its copy
    }
    if (info.isDirectory()) {
      await syncTree(source, target, since);
      continue;
    }
    const copied = await stat(target).catch(() => null);
    if (copied && copied.size === info.size && copied.mtimeMs === info.mtimeMs && info.mtimeMs < since) continue;
    if (copied) await rewriteChanged(source, target, info.size);
    else await copyFile(source, target);
    await utimes(target, info.atime, info.mtime);
  }
}

const BLOCK = 64 * 1024;

/** Makes `target` byte for byte `source` (of `size` bytes), writing only the blocks that differ. */
async function rewriteChanged(source, target, size) {
  const from = await open(source, 'r');
  const to = await open(target, 'r+');
  const sourceBlock = Buffer.alloc(BLOCK);
  const targetBlock = Buffer.alloc(BLOCK);
  try {
    for (let at = 0; at < size; at += BLOCK) {
      const { bytesRead: n } = await from.read(sourceBlock, 0, Math.min(BLOCK, size - at), at);
      if (n === 0) break;
      const { bytesRead: m } = await to.read(targetBlock, 0, n, at);
      if (m !== n || !sourceBlock.subarray(0, n).equals(targetBlock.subarray(0, n)))
        await to.write(sourceBlock, 0, n, at);
    }
    await to.truncate(size);
  } finally {
    await from.close();
    await to.close();
  }
}
