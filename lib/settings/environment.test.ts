import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');

/**
 * Where process.env may still be read: the settings module, the throwaway databases of unit tests. Outside these
 * folders, scripts that start processes (scripts/, bench/), the CLI, e2e/, the tests themselves and Next's own
 * entry files (instrumentation.ts, proxy.ts: NEXT_RUNTIME, NODE_ENV) read it as they need.
 */
const ALLOWED = ['lib/settings/', 'server/testing/'];

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.(ts|tsx|mjs|js)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

describe('process.env', () => {
  it('is read by the settings module alone in lib/, server/, app/ and components/', () => {
    const files = ['lib', 'server', 'app', 'components'].flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(200);
    const readers = files.filter(
      (file) =>
        !ALLOWED.some((folder) => file.startsWith(folder)) &&
        /process\.env\b/.test(readFileSync(path.join(ROOT, file), 'utf8')),
    );
    expect(readers).toEqual([]);
  });
});
