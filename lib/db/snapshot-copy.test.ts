import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript, run by PGlite's thread
import { copyTree, syncTree } from './snapshot-copy.mjs';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function tree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else out[path.relative(root, full)] = readFileSync(full).toString('hex');
    }
  };
  walk(root);
  return out;
}

describe('the copy of a live data directory', () => {
  it('after syncTree the copy is byte for byte the source: blocks changed in place, files grown, shrunk, added, removed', async () => {
    const [from, to] = [0, 1].map(() => mkdtempSync(path.join(os.tmpdir(), 'svc-snapshot-copy-')));
    dirs.push(from, to);
    mkdirSync(path.join(from, 'base', '5'), { recursive: true });
    const big = Buffer.alloc(300 * 1024, 7);
    writeFileSync(path.join(from, 'base', '5', 'heap'), big);
    writeFileSync(path.join(from, 'base', '5', 'index'), Buffer.alloc(200 * 1024, 1));
    writeFileSync(path.join(from, 'gone'), 'removed later');
    writeFileSync(path.join(from, 'same'), 'never changes');
    await copyTree(from, to);

    const since = Date.now() - 100;
    // A page rewritten in the middle, same size and the old mtime: only the mtime check after `since` finds it.
    const heap = Buffer.from(big);
    heap.fill(9, 130 * 1024, 138 * 1024);
    writeFileSync(path.join(from, 'base', '5', 'heap'), heap);
    writeFileSync(path.join(from, 'base', '5', 'index'), Buffer.alloc(100 * 1024, 2)); // shrunk
    writeFileSync(path.join(from, 'base', '5', 'new'), 'added');
    rmSync(path.join(from, 'gone'));
    const old = new Date(since - 60_000);
    utimesSync(path.join(from, 'same'), old, old);
    utimesSync(path.join(to, 'same'), old, old);

    await syncTree(from, to, since);
    expect(tree(to)).toEqual(tree(from));
    expect(Object.keys(tree(to)).sort()).toEqual(['base/5/heap', 'base/5/index', 'base/5/new', 'same']);
  });
});
