import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';

// Migrations are written by hand (0012 on), but each leaves drizzle-kit's snapshot of the schema it reaches, so
// `npm run db:generate` writes the next migration from what schema.ts changed since, and nothing when it did not.
// Run on a copy of drizzle/: generate would otherwise write into the checkout.
const copy = mkdtempSync(path.join(os.tmpdir(), 'drizzle-snapshot-'));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

it('schema.ts is what the latest migration snapshot holds: npm run db:generate has nothing to write', () => {
  cpSync('drizzle', path.join(copy, 'drizzle'), { recursive: true });
  const before = readdirSync(path.join(copy, 'drizzle'), { recursive: true }).sort();
  // drizzle-kit reads `--out` relative to the working directory.
  const out = path.relative(process.cwd(), path.join(copy, 'drizzle'));
  const printed = execFileSync(
    process.execPath,
    [
      'node_modules/drizzle-kit/bin.cjs',
      'generate',
      '--dialect',
      'postgresql',
      '--schema',
      './lib/db/schema.ts',
      '--out',
      out,
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  expect(printed).toContain('No schema changes, nothing to migrate');
  expect(readdirSync(path.join(copy, 'drizzle'), { recursive: true }).sort()).toEqual(before);
}, 60_000);
