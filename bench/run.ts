/**
 * `npm run bench`: starts the built app and measures, side by side in one run, each route as a ratio to the
 * app's own no-op route (GET /v1/health). Exits non-zero only when a request fails, never on a figure.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { measureKeyVerification } from './verify-keys';

const CONNECTIONS = 16;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const PG_BASE = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';

type Prepared = { adminKey: string; orgId: string; projectId: string; silenceIds: string[]; subscriptionIds: string[] };
type Figure = { name: string; rps: number; p50: number; p99: number; failed: number };
let failures = 0;

function run(cmd: string, args: string[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}`))));
  });
}

async function startServer(port: number, env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      NEXTAUTH_SECRET: 'bench-secret-0123456789abcdefghij',
      RATE_LIMIT_REQUESTS: '100000000',
      SEED_DEMO: '0',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 100; i++) {
    await new Promise((r) => setTimeout(r, 200));
    const ok = await fetch(`http://127.0.0.1:${port}/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return child;
  }
  child.kill();
  throw new Error('server did not become healthy');
}

async function stopServer(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

async function prepare(keys: number, env: Record<string, string>): Promise<Prepared> {
  const out = path.join(os.tmpdir(), `bench-prepared-${process.pid}-${keys}.json`);
  await run(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'bench/prepare.ts', String(keys), out], env);
  return JSON.parse(readFileSync(out, 'utf8')) as Prepared;
}

async function load(name: string, opts: autocannon.Options): Promise<Figure> {
  const result = await autocannon({ connections: CONNECTIONS, duration: SECONDS, ...opts });
  const failed = result.non2xx + result.errors + result.timeouts;
  failures += failed;
  if (failed)
    console.error(`  ! ${name}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  return { name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, failed };
}

function counter() {
  let n = 0;
  return () => ++n;
}

/** The three measured routes, each preceded by its own no-op measurement so drift between them cancels out. */
async function measureRoutes(label: string, port: number, p: Prepared) {
  const base = `http://127.0.0.1:${port}`;
  const auth = { authorization: `Bearer ${p.adminKey}`, 'content-type': 'application/json' };
  const project = `/v1/organizations/${p.orgId}/projects/${p.projectId}`;
  // Round-robin over one resource per connection.
  const silencePath = (n: number) => `${project}/obs/silences/${p.silenceIds[n % p.silenceIds.length]}`;
  const subPath = (n: number) => `${project}/subscriptions/${p.subscriptionIds[n % p.subscriptionIds.length]}`;
  const next = counter();
  await load('warm-up', { url: `${base}/v1/health`, duration: 2 });
  const rows: { baseline: Figure; target: Figure; min: number }[] = [];
  const pair = async (target: () => Promise<Figure>, min: number) => {
    const baseline = await load('no-op', { url: `${base}/v1/health` });
    rows.push({ baseline, target: await target(), min });
  };
  await pair(
    () =>
      load('PATCH silence comment (API key, If-Match)', {
        url: base,
        method: 'PATCH',
        headers: { ...auth, 'if-match': '*' },
        requests: [
          {
            setupRequest: (req) => {
              const n = next();
              return { ...req, path: silencePath(n), body: JSON.stringify({ comment: `bench ${n}` }) };
            },
          },
        ],
      }),
    0.7,
  );
  await pair(
    () =>
      load('PATCH subscription batchSize (API key)', {
        url: base,
        method: 'PATCH',
        headers: auth,
        requests: [
          {
            setupRequest: (req) => {
              const n = next();
              return { ...req, path: subPath(n), body: JSON.stringify({ batchSize: (Math.floor(n / 16) % 10) + 1 }) };
            },
          },
        ],
      }),
    0.7,
  );
  await pair(
    () =>
      load('GET API key list, 50 items (admin)', {
        url: `${base}/v1/organizations/${p.orgId}/api-keys?limit=50`,
        headers: auth,
      }),
    0.6,
  );

  console.log(
    `\n${label}: ${CONNECTIONS} connections, ${SECONDS} s each; ratio = route req/s ÷ no-op req/s measured just before it`,
  );
  console.log(
    'route'.padEnd(44),
    'req/s'.padStart(8),
    'ratio'.padStart(7),
    'p50 ms'.padStart(8),
    'p99 ms'.padStart(8),
    'p99/no-op'.padStart(10),
    ' target',
  );
  for (const { baseline, target, min } of rows) {
    const ratio = target.rps / baseline.rps;
    const p99Ratio = target.p99 / Math.max(baseline.p99, 1);
    const patch = target.name.startsWith('PATCH');
    const met = ratio >= min && (!patch || p99Ratio <= 3);
    console.log(
      '  no-op GET /v1/health'.padEnd(44),
      baseline.rps.toFixed(0).padStart(8),
      ''.padStart(7),
      String(baseline.p50).padStart(8),
      String(baseline.p99).padStart(8),
    );
    console.log(
      `  ${target.name}`.padEnd(44),
      target.rps.toFixed(0).padStart(8),
      ratio.toFixed(2).padStart(7),
      String(target.p50).padStart(8),
      String(target.p99).padStart(8),
      p99Ratio.toFixed(2).padStart(10),
      ` ≥ ${min}${patch ? ', p99 ≤ 3×' : ''}: ${met ? 'met' : 'MISSED'}`,
    );
  }
}

async function listLatency(keys: number, port: number): Promise<number> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `bench-list-${keys}-`));
  try {
    const p = await prepare(keys, { DATA_DIR: dir });
    const server = await startServer(port, { DATA_DIR: dir });
    try {
      const url = `http://127.0.0.1:${port}/v1/organizations/${p.orgId}/api-keys?limit=50`;
      const headers = { authorization: `Bearer ${p.adminKey}` };
      await load('warm-up', { url, headers, duration: 2 });
      return (await load(`list at ${keys} keys`, { url, headers })).p50;
    } finally {
      await stopServer(server);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: `${PG_BASE}/postgres`, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/**
 * The per-key usage counting (a Map increment on every API-key request) on and off, in one run: the same
 * authenticated route on the same database, each server measured right after its own no-op.
 */
async function measureUsageCounting(dir: string, p: Prepared): Promise<void> {
  const ratios: Record<string, number> = {};
  for (const [label, counting] of [
    ['on', '1'],
    ['off', '0'],
  ] as const) {
    const server = await startServer(3904, { DATA_DIR: dir, API_KEY_USAGE_COUNTING: counting });
    try {
      const base = 'http://127.0.0.1:3904';
      await load('warm-up', { url: `${base}/v1/health`, duration: 2 });
      const baseline = await load('no-op', { url: `${base}/v1/health` });
      const route = await load(`GET /v1/organizations (API key), counting ${label}`, {
        url: `${base}/v1/organizations`,
        headers: { authorization: `Bearer ${p.adminKey}` },
      });
      ratios[label] = route.rps / baseline.rps;
      console.log(
        `  usage counting ${label}: ${Math.round(route.rps)} req/s, ratio to no-op ${ratios[label].toFixed(2)}`,
      );
    } finally {
      await stopServer(server);
    }
  }
  console.log(`Usage counting: ratio with ÷ without = ${(ratios.on / ratios.off).toFixed(2)} (1.00 = costs nothing)`);
}

async function main() {
  if (!existsSync('.next/BUILD_ID')) throw new Error('Run `npm run build` first.');
  console.log(
    `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; load generator on the same machine.`,
  );

  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-pglite-'));
  try {
    const p = await prepare(50, { DATA_DIR: dir });
    const server = await startServer(3900, { DATA_DIR: dir });
    try {
      await measureRoutes('Embedded database (PGlite)', 3900, p);
    } finally {
      await stopServer(server);
    }
    await measureUsageCounting(dir, p);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  if (await postgresReachable()) {
    const db = `svc_bench_${process.pid}`;
    const admin = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
    await admin.connect();
    await admin.query(`create database ${db}`);
    try {
      const env = { DATABASE_URL: `${PG_BASE}/${db}` };
      const p = await prepare(50, env);
      const server = await startServer(3901, env);
      try {
        await measureRoutes('PostgreSQL', 3901, p);
      } finally {
        await stopServer(server);
      }
    } finally {
      await admin.query(`drop database if exists ${db} with (force)`);
      await admin.end();
    }
  } else {
    console.log('\nPostgreSQL: not reachable, skipped.');
  }

  const verifications = await measureKeyVerification();
  console.log(
    `\nCached API key verification, in process: ${Math.round(verifications).toLocaleString('en')} per second (target ≥ 100,000: ${verifications >= 100_000 ? 'met' : 'MISSED'})`,
  );

  const small = await listLatency(1_000, 3902);
  const large = await listLatency(100_000, 3903);
  const listRatio = large / Math.max(small, 1);
  console.log(
    `Key list p50 (limit 50, PGlite): ${small} ms at 1,000 keys, ${large} ms at 100,000 keys: ${listRatio.toFixed(2)}× (target ≤ 1.5×: ${listRatio <= 1.5 ? 'met' : 'MISSED'})`,
  );

  if (failures > 0) {
    console.error(`\n${failures} requests failed.`);
    process.exit(1);
  }
}

await main();
