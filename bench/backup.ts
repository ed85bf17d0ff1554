/**
 * `npm run bench:backup`: how long `npm run db:backup` and `db:restore` take on an installation of 100,000 audit
 * events and 10,000 keys, and what a backup does to the writes the server takes meanwhile, on the embedded
 * database and on PostgreSQL. Per database: seed (straight into the database, server/demo/bulk-seed.ts: a correct audit
 * chain), start the built server, measure the p99 of silence PATCHes (each with
 * its audit event) through HTTP for BENCH_WINDOW_MS with no backup
 * (the floor), then during each of BACKUP_RUNS backups, then stop the server and restore the last backup into an
 * empty database of the same kind. The commands are timed as an operator sees them (their whole process); their
 * start-up alone (`tsx` loading the command, refused for want of a file) is the floor they are compared with.
 * Prints a Markdown table and writes it into docs/benchmarks.md between its markers. Exits non-zero when a write or
 * a command fails, never on a figure.
 *
 * The npm script sets DATABASE_QUERY_TIMEOUT_MS=0: the seeding and its ANALYZE outlast the app's 4 s.
 * Environment: BENCH_AUDIT (100000), BENCH_KEYS (10000), BENCH_WINDOW_MS (10000), BACKUP_RUNS (3), BENCH_WRITERS (4:
 * concurrent writers), BENCH_PORT (3900), BENCH_DATABASES (`pglite,postgres`), BENCH_PG_URL (the PostgreSQL server,
 * `postgres://postgres@127.0.0.1:5432`), BENCH_DB_PREFIX (`svc_bench_backup`: its databases are made and dropped).
 */
import '../scripts/settings-first';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import pg from 'pg';
import { displayPrefix, generateApiKey, sha256Hex } from '../lib/auth/api-key-format';
import { analyzeSeeded, bulkAppendAuditEvents, bulkInsertApiKeys, bulkInsertSilences } from '../server/demo/bulk-seed';
import { closeDb, getDb } from '../lib/db/client';
import * as t from '../lib/db/schema';
import { SERVER_ARGS } from '../scripts/server-node-flags.mjs';
import { seedDemoData } from '../server/demo/seed';

const AUDIT = Number(process.env.BENCH_AUDIT ?? 100_000);
const KEYS = Number(process.env.BENCH_KEYS ?? 10_000);
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 10_000);
const RUNS = Number(process.env.BACKUP_RUNS ?? 3);
const WRITERS = Number(process.env.BENCH_WRITERS ?? 4);
const PORT = Number(process.env.BENCH_PORT ?? 3900);
const DATABASES = (process.env.BENCH_DATABASES ?? 'pglite,postgres').split(',');
const PG_BASE = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
const PREFIX = process.env.BENCH_DB_PREFIX ?? 'svc_bench_backup';
const ENCRYPTION_KEY = 'YmVuY2gtb25seS1lbmNyeXB0aW9uLWtleS0zMmJ5dGU=';
const SERVER_ENV = {
  NEXTAUTH_SECRET: 'bench-only-nextauth-secret-0123456789abcdef',
  ENCRYPTION_KEY,
  HOST: '127.0.0.1',
  SEED_DEMO: '0',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_REQUESTS: '100000000',
  // Housekeeping's first pass would be one more writer in the measurement.
  BACKGROUND_START_DELAY_MS: '86400000',
};
let failures = 0;

type Target = { label: string; env: Record<string, string>; drop: () => Promise<void> };
type Command = { code: number | null; output: string; ms: number };

/** Runs a command as an operator would (`tsx scripts/…`), with the environment naming the database. */
function command(script: string, args: string[], env: Record<string, string>): Promise<Command> {
  const rest = { ...process.env };
  delete rest.DATABASE_URL;
  delete rest.DATA_DIR;
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['node_modules/.bin/tsx', script, ...args], {
      env: { ...rest, ...SERVER_ENV, ...env },
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.once('exit', (code) => resolve({ code, output, ms: performance.now() - started }));
  });
}

function must(what: string, result: Command): Command {
  if (result.code !== 0) {
    failures++;
    console.error(`${what} failed (${result.code}):\n${result.output}`);
  }
  return result;
}

async function newTarget(kind: string, name: string): Promise<Target> {
  if (kind === 'pglite') {
    const dir = mkdtempSync(path.join(os.tmpdir(), `svc-bench-${name}-`));
    return { label: 'PGlite', env: { DATA_DIR: dir }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const database = `${PREFIX}_${name}_${process.pid}`;
  const admin = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
  await admin.connect();
  await admin.query(`drop database if exists ${database} with (force)`);
  await admin.query(`create database ${database}`);
  await admin.end();
  return {
    label: 'PostgreSQL',
    env: { DATABASE_URL: `${PG_BASE}/${database}` },
    drop: async () => {
      const a = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
      await a.connect();
      await a.query(`drop database if exists ${database} with (force)`);
      await a.end();
    },
  };
}

/** The demo data, KEYS keys and AUDIT chained events in Acme, and a key for the writers; in this process. */
async function seed(target: Target): Promise<{ secret: string; silences: string[]; seedMs: number }> {
  const saved = { DATABASE_URL: process.env.DATABASE_URL, DATA_DIR: process.env.DATA_DIR };
  delete process.env.DATABASE_URL;
  delete process.env.DATA_DIR;
  Object.assign(process.env, target.env, { DATABASE_QUERY_TIMEOUT_MS: '0', ENCRYPTION_KEY });
  const started = performance.now();
  try {
    const db = await getDb();
    await seedDemoData(db);
    const [acme] = await db.select().from(t.organizations).where(eq(t.organizations.name, 'Acme'));
    const [ada] = await db.select().from(t.users).where(eq(t.users.email, 'ada@acme.test'));
    const secret = generateApiKey();
    await db.insert(t.apiKeys).values({
      organizationId: acme.id,
      name: 'bench writer',
      prefix: displayPrefix(secret),
      secretHash: sha256Hex(secret),
      ownerType: 'user',
      ownerId: ada.id,
      createdByUserId: ada.id,
    });
    await bulkInsertApiKeys(db, acme.id, { type: 'user', id: ada.id }, KEYS);
    await bulkAppendAuditEvents(db, acme.id, AUDIT);
    // One active silence per writer, so that no two writes wait for the same row.
    const [production] = await db.select().from(t.projects).where(eq(t.projects.name, 'Production'));
    const scope = { organizationId: acme.id, projectId: production.id };
    const comment = (i: number) => `bench writer ${i}`;
    await bulkInsertSilences(db, scope, { type: 'user', id: ada.id }, WRITERS, (i) => ({
      comment: comment(i),
      matchers: [{ label: 'bench', op: '=', value: String(i) }],
      ended: false,
    }));
    const written = await db
      .select({ id: t.silences.id })
      .from(t.silences)
      .where(
        inArray(
          t.silences.comment,
          Array.from({ length: WRITERS }, (_, i) => comment(i)),
        ),
      );
    await analyzeSeeded(db);
    const path = `/v1/organizations/${acme.id}/projects/${production.id}/obs/silences`;
    return { secret, silences: written.map((w) => `${path}/${w.id}`), seedMs: performance.now() - started };
  } finally {
    await closeDb();
    for (const [name, value] of Object.entries(saved))
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
  }
}

async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, SERVER_ARGS, {
    env: { ...process.env, ...SERVER_ENV, PORT: String(PORT), ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${PORT}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited ${child.exitCode}`);
    const up = await fetch(`${base}/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { child, base };
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the server never became healthy');
}

async function stopServer(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** A loop per silence of PATCHes (each with its audit event) until `until` settles; each write's latency in ms. */
async function writeWhile(
  base: string,
  silences: string[],
  secret: string,
  until: Promise<unknown>,
): Promise<number[]> {
  let going = true;
  void until.finally(() => (going = false));
  const latencies: number[] = [];
  let n = 0;
  await Promise.all(
    silences.map(async (silence) => {
      while (going) {
        const started = performance.now();
        const res = await fetch(`${base}${silence}`, {
          method: 'PATCH',
          headers: {
            authorization: `Bearer ${secret}`,
            'content-type': 'application/json',
            'if-match': '*',
            'idempotency-key': randomUUID(),
          },
          body: JSON.stringify({ comment: `bench write ${n++}` }),
        });
        const body = await res.text();
        latencies.push(performance.now() - started);
        if (res.status !== 200) {
          failures++;
          console.error(`a write answered ${res.status}: ${body}`);
        }
      }
    }),
  );
  return latencies;
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};
const median = (values: number[]) => quantile(values, 0.5);
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const msf = (ms: number) => `${ms < 10 ? ms.toFixed(1) : ms.toFixed(0)} ms`;

const rows: string[][] = [];
const loadAtStart = os.loadavg()[0];
const work = mkdtempSync(path.join(os.tmpdir(), 'svc-bench-backup-'));
try {
  // The commands' own start-up: tsx loading the script, which then refuses for want of a file.
  const startups: number[] = [];
  for (let i = 0; i < 3; i++) startups.push((await command('scripts/db-backup.ts', [], {})).ms);
  const startup = median(startups);
  console.log(`command start-up (floor): ${msf(startup)}`);

  for (const kind of DATABASES) {
    const source = await newTarget(kind, 'source');
    const into = await newTarget(kind, 'restored');
    try {
      const { silences, secret, seedMs } = await seed(source);
      console.log(`${source.label}: seeded ${KEYS} keys and ${AUDIT} audit events in ${secs(seedMs)}`);
      const server = await startServer(source.env);
      const file = path.join(work, `${kind}.ndjson`);
      const backups: number[] = [];
      const pauses: number[] = [];
      const floor: number[] = [];
      const during: number[] = [];
      try {
        // Warm the route (compilation of the handler, plans) before anything is measured.
        await writeWhile(server.base, silences, secret, new Promise((r) => setTimeout(r, 2000)));
        for (let run = 0; run < RUNS; run++) {
          // The floor, right before each backup, so drift cancels.
          floor.push(
            ...(await writeWhile(server.base, silences, secret, new Promise((r) => setTimeout(r, WINDOW_MS)))),
          );
          const backup = command('scripts/db-backup.ts', [file], source.env);
          during.push(...(await writeWhile(server.base, silences, secret, backup)));
          const done = must('db:backup', await backup);
          backups.push(done.ms);
          const pause = /server's (\d+) ms copy/.exec(done.output);
          if (pause) pauses.push(Number(pause[1]));
          console.log(`${source.label}: backup ${run + 1}: ${done.output.trim()}`);
        }
      } finally {
        await stopServer(server.child);
      }
      const restore = must('db:restore', await command('scripts/db-restore.ts', [file], into.env));
      console.log(`${source.label}: ${restore.output.trim()}`);
      const p99Floor = quantile(floor, 0.99);
      const p99During = quantile(during, 0.99);
      rows.push([
        source.label,
        `${secs(median(backups))} (${(median(backups) / startup).toFixed(1)}x)`,
        pauses.length ? msf(Math.max(...pauses)) : 'none (MVCC snapshot)',
        `${(statSync(file).size / 2 ** 20).toFixed(0)} MiB`,
        `${secs(restore.ms)} (${(restore.ms / startup).toFixed(1)}x)`,
        `${msf(p99Floor)} (${floor.length})`,
        `${msf(p99During)} (${during.length})`,
        `${(p99During / p99Floor).toFixed(2)}x`,
        msf(Math.max(...during)),
      ]);
    } finally {
      await source.drop();
      await into.drop();
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const table = [
  `${AUDIT.toLocaleString('en')} audit events and ${KEYS.toLocaleString('en')} keys (+ the demo data and the writes), ` +
    `${WRITERS} concurrent silence PATCHes through HTTP, ${RUNS} backups per database, ` +
    `${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, ` +
    `load average ${loadAtStart.toFixed(0)} at the start (other processes share the machine):`,
  '',
  '| database | backup (× command start-up) | writes held by the copy | file | restore (× start-up) | write p99, no backup (writes) | write p99 during backups (writes) | ratio | slowest write during |',
  '|---|---|---|---|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.join(' | ')} |`),
].join('\n');
const docFile = path.join(process.cwd(), 'docs/benchmarks.md');
const start = '<!-- bench:backup -->';
const end = '<!-- /bench:backup -->';
const doc = readFileSync(docFile, 'utf8');
const from = doc.indexOf(start);
const to = doc.indexOf(end);
if (from >= 0 && to > from) writeFileSync(docFile, `${doc.slice(0, from + start.length)}\n${table}\n${doc.slice(to)}`);
console.log(`\n${table}`);
if (failures > 0) {
  console.error(`${failures} failures`);
  process.exit(1);
}
