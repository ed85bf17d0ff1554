import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

// The scripts an operator runs (`npm run seed`, `db:backup`, the benchmarks…) refuse a bad setting as the server does: one line
// naming the variable, what it got and what it takes, exit code 1, nothing written; never a stack trace.
const root = path.resolve(import.meta.dirname, '..');
const tsx = path.join(root, 'node_modules/.bin/tsx');
let tmp = '';

afterEach(() => rmSync(tmp, { recursive: true, force: true }));

describe('a bad setting stops a script', () => {
  it.each([
    {
      script: 'scripts/seed.ts',
      args: [],
      name: 'QUEUE_MAX_IN_FLIGHT',
      value: 'abc',
      takes: 'a whole number, 1 or more',
    },
    {
      script: 'scripts/db-backup.ts',
      args: ['backup.ndjson'],
      name: 'DATABASE_POOL_SIZE',
      value: '0',
      takes: 'a whole number, 1 or more',
    },
    { script: 'bench/scale.ts', args: [], name: 'DATABASE_POOL_SIZE', value: '0', takes: 'a whole number, 1 or more' },
    { script: 'bench/run.ts', args: [], name: 'QUEUE_MAX_IN_FLIGHT', value: '-3', takes: 'a whole number, 1 or more' },
  ])('$script with $name=$value: exit 1, one line that names it', ({ script, args, name, value, takes }) => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'svc-script-settings-'));
    const dataDir = path.join(tmp, 'data');
    // Only what the script needs: a test run's own DATABASE_URL or settings must not reach it.
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production' as const,
      DATA_DIR: dataDir,
      [name]: value,
    };
    const run = spawnSync(tsx, [script, ...args], {
      cwd: root,
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      `Setting ${name} refused: it is "${value}"; it takes ${takes} (README.md, Configuration).`,
    ]);
    expect(run.stdout).toBe('');
    expect(existsSync(dataDir)).toBe(false);
  });
});

it('every script that loads the app imports ./settings-first before anything else', () => {
  const scripts = readdirSync(path.join(root, 'scripts')).filter(
    (f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'settings-first.ts',
  );
  const loading = scripts.filter((f) =>
    /from '\.\.\/(lib|server)\//.test(readFileSync(path.join(root, 'scripts', f), 'utf8')),
  );
  expect(loading.length).toBeGreaterThanOrEqual(5);
  const firstImport = (f: string) =>
    readFileSync(path.join(root, 'scripts', f), 'utf8')
      .split('\n')
      .find((line) => line.startsWith('import '));
  expect(loading.filter((f) => firstImport(f) !== "import './settings-first';")).toEqual([]);
});
