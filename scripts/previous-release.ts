/**
 * `npm run test:previous-release`: the release before this one (the commit pinned in .ci/previous-release, built
 * once into PREVIOUS_RELEASE_DIR, by default a folder under the temporary directory named after the commit) runs
 * beside this build on one fresh PostgreSQL database that this build migrated, as during a rolling upgrade: it
 * must start, and its reads and writes must work and be seen by this build, and the other way round; the audit
 * chain both wrote into must still verify. Then it restarts alone on that database, as mid-roll. Prints one line
 * per check and `N passed, N failed`; exits non-zero when a check failed. Run `npm run build` first.
 * `--build-only` builds the previous release (when it is not built yet) and stops there.
 *
 * Environment: PREVIOUS_RELEASE_PORT (6240: this build; the previous release the next port), PGURL_BASE.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { consoleEnv, stopConsole, untilHealthy } from '../bench/server';
import type { Prepared } from './drill/rolling-load';

const commit = readFileSync('.ci/previous-release', 'utf8')
  .split('\n')
  .find((line) => /^[0-9a-f]{40}$/.test(line.trim()))
  ?.trim();
if (!commit) throw new Error('.ci/previous-release names no commit (40 hex digits on a line of its own).');
const releaseDir = process.env.PREVIOUS_RELEASE_DIR ?? path.join(os.tmpdir(), `svc-previous-${commit.slice(0, 12)}`);
const PORT = Number(process.env.PREVIOUS_RELEASE_PORT ?? 6240);
const PG_BASE = process.env.PGURL_BASE ?? 'postgres://postgres@127.0.0.1:5432';
const database = `rolling_previous_${process.pid}`;
const databaseUrl = `${PG_BASE}/${database}`;

/** The pinned commit's tree (git archive: no worktree to register), installed and built once. */
function buildPreviousRelease(): void {
  if (existsSync(path.join(releaseDir, '.next', 'BUILD_ID'))) return;
  console.log(`Building the previous release ${commit} in ${releaseDir}`);
  rmSync(releaseDir, { recursive: true, force: true });
  mkdirSync(releaseDir, { recursive: true });
  execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C "${releaseDir}"`], { stdio: 'inherit' });
  for (const args of [
    ['ci', '--no-audit', '--no-fund'],
    ['run', 'build'],
  ])
    execFileSync('npm', args, { cwd: releaseDir, stdio: ['ignore', 'ignore', 'inherit'] });
}

async function startIn(cwd: string, port: number): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd,
    env: consoleEnv(port, { DATABASE_URL: databaseUrl, SHUTDOWN_GRACE_MS: '0', LOG_LEVEL: 'warn' }),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  await untilHealthy(child, base);
  return { child, base };
}

let passed = 0;
let failed = 0;
function check(name: string, ok: boolean, detail = ''): void {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok    ' : 'FAILED'} ${name}${ok || !detail ? '' : `: ${detail}`}`);
}

type Call = (method: string, url: string, body?: unknown) => Promise<{ status: number; body: Record<string, unknown> }>;
const caller =
  (p: Prepared): Call =>
  async (method, url, body) => {
    const res = await fetch(url, {
      method,
      headers: { authorization: `Bearer ${p.adminKey}`, 'content-type': 'application/json', 'if-match': '*' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown> };
  };

/** Reads and writes of each build, each seen by the other; the audit chain both wrote into verifies. */
async function exercise(call: Call, p: Prepared, current: string, previous: string): Promise<void> {
  const project = `/v1/organizations/${p.orgId}/projects/${p.projectId}`;
  const silence = (comment: string) => ({
    comment,
    endsAt: new Date(Date.now() + 86_400_000).toISOString(),
    matchers: [{ label: 'service', op: '=', value: 'previous-release' }],
  });
  for (const [who, base] of [
    ['previous release', previous],
    ['this build', current],
  ] as const) {
    const keys = await call('GET', `${base}/v1/organizations/${p.orgId}/api-keys?limit=20`);
    check(`${who}: lists API keys`, keys.status === 200, JSON.stringify(keys));
    const edited = await call('PATCH', `${base}${project}/obs/silences/${p.silenceIds[0]}`, { comment: who });
    check(`${who}: edits a silence`, edited.status === 200 && edited.body.comment === who, JSON.stringify(edited));
    const sub = await call('PATCH', `${base}${project}/subscriptions/${p.subscriptionIds[0]}`, { batchSize: 7 });
    check(`${who}: edits a subscription`, sub.status === 200, JSON.stringify(sub));
    const created = await call('POST', `${base}${project}/obs/silences`, silence(`made by ${who}`));
    check(`${who}: creates a silence`, created.status === 201, JSON.stringify(created));
    const other = base === previous ? current : previous;
    const seen = await call('GET', `${other}${project}/obs/silences/${String(created.body.id)}`);
    check(`${who}: its silence is read by the other`, seen.body.comment === `made by ${who}`, JSON.stringify(seen));
  }
  for (const [who, base] of [
    ['previous release', previous],
    ['this build', current],
  ] as const) {
    const verified = await call('GET', `${base}/v1/organizations/${p.orgId}/audit-events/verify`);
    check(
      `${who}: the audit chain both wrote verifies`,
      verified.body.firstBrokenSeq === null,
      JSON.stringify(verified),
    );
  }
}

async function main(): Promise<number> {
  buildPreviousRelease();
  // `--build-only`: .ci/run builds it while npm test's checks run, and runs the checks later.
  if (process.argv.includes('--build-only')) return 0;
  console.log(`The previous release: ${commit}`);
  const admin = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
  await admin.connect();
  await admin.query(`create database ${database}`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-previous-run-'));
  const running: ChildProcess[] = [];
  try {
    // This build migrates the fresh database and seeds it (bench/prepare.ts: the demo, an admin key, silences).
    const out = path.join(dir, 'prepared.json');
    execFileSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'bench/prepare.ts', '0', out], {
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: 'inherit',
    });
    const p = JSON.parse(readFileSync(out, 'utf8')) as Prepared;
    const current = await startIn(process.cwd(), PORT);
    running.push(current.child);
    const previous = await startIn(releaseDir, PORT + 1).catch((err: unknown) => {
      check('the previous release starts on the database this build migrated', false, String(err));
      return null;
    });
    if (previous) {
      running.push(previous.child);
      check('the previous release starts on the database this build migrated', true);
      await exercise(caller(p), p, current.base, previous.base);
      // Mid-roll, the previous release restarts while this build keeps serving.
      await stopConsole(previous.child);
      const again = await startIn(releaseDir, PORT + 1);
      running.push(again.child);
      const keys = await caller(p)('GET', `${again.base}/v1/organizations/${p.orgId}/api-keys?limit=20`);
      check('the previous release restarts and serves', keys.status === 200, JSON.stringify(keys));
    }
  } finally {
    await Promise.all(running.map((child) => stopConsole(child)));
    await admin.query(`drop database if exists ${database} with (force)`).catch(() => {});
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`previous-release: ${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
