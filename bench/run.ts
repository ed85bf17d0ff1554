/**
 * `npm run bench`: starts the built app and measures every hot route against the framework's own floor,
 * `GET /v1/health/live` (the wrapper and nothing else: no credential, no database), in the same run, each
 * route right after its own floor measurement so drift cancels. Per route: req/s, the ratio to the floor,
 * p50/p99, and CPU milliseconds per request of the app and (on PostgreSQL) of the database backends.
 * Exits non-zero only when a request fails, never on a figure.
 *
 * Environment: BENCH_SECONDS (6: per route and per floor, in BENCH_SLICES (3) turns of the two),
 * BENCH_ROUNDS (3: repeats of the whole route set per server), BENCH_CONNECTIONS (16: concurrent clients; 1 shows
 * the latency of a request alone, where nothing is shared between requests),
 * BENCH_PORT (3900: the servers listen on it and the next four), BENCH_DATABASES (`pglite,postgres`),
 * BENCH_SCALE=0 (skip the 100,000-key list and the in-process key verification), BENCH_CPU_PROF=<dir>
 * (run the servers under `node --cpu-prof` and note when each measurement ran, in <dir>/windows.json; summarize
 * with `tsx bench/profile.ts <dir>`, which then also prints each route's cost over the floor's), BENCH_ROUTES=<text>
 * (only the routes whose name contains it, and no comparison runs: to profile one route), BENCH_NODE_FLAGS (Node's
 * own flags for the servers: an A/B of a runtime setting), BENCH_SLOW_MS (50: the servers' SLOW_REQUEST_MS),
 * BENCH_ALERTS=0 (no alerts: the alert routes measure Production at 10,000 alerts and 1,000 silences, each page
 * and preview in turns with the key list, its goal a ratio to that page's rate), BENCH_QUEUES=0 (no delivery
 * phase: bench/queues.ts drains a backlog to a local receiver, on PGlite and from two instances on PostgreSQL,
 * against posting the same batches straight to it; BENCH_QUEUE_MESSAGES sizes it).
 */
import '../scripts/settings-first';
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { SERVER_NODE_FLAGS } from '../scripts/server-node-flags.mjs';
import { cpuMs, sampleApp, samplePostgres } from './cpu';
import { printGoals, printRun, type Figure, type Pair } from './report';
import { startConsole } from './server';
import { printSlowRequests } from './slow-requests';
import { measureKeyVerification } from './verify-keys';
import { ALERT_COUNT, alertAnnotations, alertLabels } from './alerts-seed';
import { measureQueueDelivery, printQueueFigures, type QueueFigures } from './queues';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SLICES = Math.max(1, Number(process.env.BENCH_SLICES ?? 3));
// The server logs each request that took this long with what else ran meanwhile (printed after each database).
const SLOW_MS = Number(process.env.BENCH_SLOW_MS ?? 50);
const WARM_UP_SECONDS = 4;
const PORT = Number(process.env.BENCH_PORT ?? 3900);
const DATABASES = (process.env.BENCH_DATABASES ?? 'pglite,postgres').split(',');
const PG_BASE = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
const FLOOR = '/v1/health/live';
const ROUTES = process.env.BENCH_ROUTES;
// Node's own flags for the servers: production's (scripts/server-node-flags.mjs) unless BENCH_NODE_FLAGS names
// others, for an A/B of a runtime setting (V8's GC flags are refused in NODE_OPTIONS).
const NODE_FLAGS = process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? SERVER_NODE_FLAGS;
const ALERTS = process.env.BENCH_ALERTS !== '0';
// The delivery phase runs with the whole set, or alone with the publish route (BENCH_ROUTES=publish).
const QUEUES = process.env.BENCH_QUEUES !== '0' && (!ROUTES || ROUTES === 'publish');
const KEY_LIST = 'GET API key list, 50 items (admin)';

type Prepared = {
  adminKey: string;
  restrictedKey: string;
  orgId: string;
  projectId: string;
  silenceIds: string[];
  subscriptionIds: string[];
  publishQueueId: string;
};
type Server = { child: ChildProcess; base: string; log: string };
/** One measurement, with its count of requests and each response's latency, so several combine exactly. */
type Measured = Figure & { requests: number; latencies: number[] };
/**
 * Where CPU is counted: the app's process tree, and the database's backends when on PostgreSQL; `settle`
 * runs before each route's measurement.
 */
type Meter = { appPid: number; pg?: { admin: pg.Client; database: string }; settle?: () => Promise<void> };
let failures = 0;
/** With BENCH_CPU_PROF: when each measurement ran (monotonic µs, the profiles' clock), for bench/profile.ts. */
const windows: { name: string; start: number; end: number; requests: number }[] = [];

function run(cmd: string, args: string[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}`))));
  });
}

/** Each server's log, for the slow-request summary; kept under the OS's temporary folder until the bench ends. */
const logDir = mkdtempSync(path.join(os.tmpdir(), 'bench-logs-'));
let servers = 0;

async function startServer(port: number, env: Record<string, string>): Promise<Server> {
  const profile = process.env.BENCH_CPU_PROF;
  // Node refuses --cpu-prof in NODE_OPTIONS: it goes on the command line, before scripts/start.mjs, which runs
  // Next in its own process (and signs the connection's address, which the restricted key's rule reads).
  const args = [
    ...NODE_FLAGS,
    ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profile)}`] : []),
    'scripts/start.mjs',
  ];
  const log = path.join(logDir, `server-${++servers}.log`);
  const fd = openSync(log, 'w');
  // As in production: JSON lines, every background job running (the bench's organization has no webhooks, so
  // the delivery worker polls an empty queue each second, as an idle instance's does).
  const child = await startConsole(port, { LOG_FORMAT: 'json', SLOW_REQUEST_MS: String(SLOW_MS), ...env }, args, fd);
  closeSync(fd);
  return { child, base: `http://127.0.0.1:${port}`, log };
}

async function stopServer({ child }: Server): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

async function prepare(keys: number, env: Record<string, string>, alerts = false): Promise<Prepared> {
  const out = path.join(os.tmpdir(), `bench-prepared-${process.pid}-${keys}.json`);
  const args = ['node_modules/tsx/dist/cli.mjs', 'bench/prepare.ts', String(keys), out, ...(alerts ? ['alerts'] : [])];
  await run(process.execPath, args, env);
  // It holds the bench organization's keys: read once, then removed.
  try {
    return JSON.parse(readFileSync(out, 'utf8')) as Prepared;
  } finally {
    rmSync(out, { force: true });
  }
}

async function load(name: string, opts: autocannon.Options, meter?: Meter): Promise<Measured> {
  const app = meter && sampleApp(meter.appPid);
  const db = meter?.pg && (await samplePostgres(meter.pg.admin, meter.pg.database));
  // autocannon's promise is also its event emitter; its types name only one of the two.
  const running = autocannon({
    connections: CONNECTIONS,
    duration: SECONDS,
    ...opts,
  }) as unknown as PromiseLike<autocannon.Result> & autocannon.Instance;
  const latencies: number[] = [];
  const start = Number(process.hrtime.bigint() / 1000n);
  running.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => latencies.push(ms));
  const result = await running;
  const appAfter = meter && sampleApp(meter.appPid);
  const dbAfter = meter?.pg && (await samplePostgres(meter.pg.admin, meter.pg.database));
  const failed = result.non2xx + result.errors + result.timeouts;
  failures += failed;
  if (failed)
    console.error(`  ! ${name}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  const requests = Math.max(result.requests.total, 1);
  windows.push({ name, start, end: Number(process.hrtime.bigint() / 1000n), requests });
  return {
    name,
    rps: result.requests.average,
    ...percentiles(latencies),
    appMs: app && appAfter ? cpuMs(app, appAfter) / requests : null,
    dbMs: db && dbAfter ? cpuMs(db, dbAfter) / requests : null,
    requests,
    latencies,
  };
}

/** p50, p99 and max of the latencies (ms): what half, 99 % and all of the responses did not exceed; 0 for none. */
function percentiles(latencies: number[]): { p50: number; p99: number; max: number } {
  const sorted = Float64Array.from(latencies).sort();
  const at = (q: number) =>
    sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { p50: at(0.5), p99: at(0.99), max: at(1) };
}

/**
 * The floor and a route measured in turns, SLICES short measurements each, so that both see the same
 * moments of a machine whose speed changes from one second to the next: req/s, CPU per request, p50 and
 * p99 over all the slices' requests together (a mean of the slices' p99s would let one slice's pause
 * count as much as all the others).
 */
async function floorAndRoute(base: string, route: Route, meter: Meter) {
  const slices: { floor: Measured; route: Measured }[] = [];
  const duration = SECONDS / SLICES;
  for (let i = 0; i < SLICES; i++) {
    const floor = route.floor
      ? await load(`${route.floor.name} (floor)`, { ...route.floor.opts, duration }, meter)
      : await load(`GET ${FLOOR} (floor)`, { url: `${base}${FLOOR}`, duration }, meter);
    slices.push({ floor, route: await load(route.name, { ...route.opts, duration }, meter) });
  }
  const combine = (figures: Measured[]): Figure => {
    const requests = figures.reduce((n, f) => n + f.requests, 0);
    const perRequest = (of: (f: Figure) => number | null) =>
      figures.every((f) => of(f) !== null) ? figures.reduce((sum, f) => sum + of(f)! * f.requests, 0) / requests : null;
    const latencies = figures.flatMap((f) => f.latencies);
    return {
      name: figures[0].name,
      rps: requests / SECONDS,
      ...percentiles(latencies),
      appMs: perRequest((f) => f.appMs),
      dbMs: perRequest((f) => f.dbMs),
    };
  };
  return { floor: combine(slices.map((s) => s.floor)), route: combine(slices.map((s) => s.route)) };
}

/**
 * A measured route and its goal, the least ratio of its rate to its floor's (null: shown for reference); `floor`
 * replaces GET /v1/health/live as the route it is compared with, `p99Limit` the most its p99 may be of that floor's.
 */
type Route = {
  name: string;
  goal: number | null;
  opts: autocannon.Options;
  floor?: { name: string; opts: autocannon.Options };
  p99Limit?: number;
};

/**
 * At 10,000 unresolved alerts and 1,000 silences, an alerts page costs at most twice the key-list page
 * and a preview four times, each measured in turns with that page; a batch of 256 alerts (Prometheus's, one at a
 * time as it sends them) is timed against the usual floor.
 */
function alertRoutes(base: string, p: Prepared, keyList: Route): Route[] {
  const auth = { authorization: `Bearer ${p.adminKey}`, 'content-type': 'application/json' };
  const project = `/v1/organizations/${p.orgId}/projects/${p.projectId}`;
  const floor = { name: keyList.name, opts: keyList.opts };
  // The console's filter after a click on an alert name: one `=` matcher, 400 of the 10,000 alerts.
  const filter = encodeURIComponent('alertname="DiskFull"');
  // Prometheus resends what still fires: the 39 whole batches of the seeded alerts in turn, each end pushed later
  // (a 40th would reach past the seed: new alerts, refused at the limit of 10,000).
  let batch = 0;
  const resend = () => {
    const from = (batch++ % Math.floor(ALERT_COUNT / 256)) * 256;
    const endsAt = new Date(Date.now() + 6 * 3_600_000).toISOString();
    return JSON.stringify(
      Array.from({ length: 256 }, (_, j) => ({
        labels: alertLabels(from + j),
        annotations: alertAnnotations(from + j),
        endsAt,
        generatorURL: `http://prometheus.example.com:9090/graph?g0.expr=${alertLabels(from + j).alertname}`,
      })),
    );
  };
  const preview = (matchers: { label: string; op: string; value: string }[]) => ({
    url: `${base}${project}/obs/silences/preview`,
    method: 'POST' as const,
    headers: auth,
    body: JSON.stringify({ matchers }),
  });
  return [
    {
      name: 'GET alerts, first page (10k alerts)',
      goal: 0.5,
      p99Limit: 2,
      floor,
      opts: { url: `${base}${project}/obs/alerts?limit=50`, headers: auth },
    },
    {
      name: 'GET alerts, filter alertname= (10k alerts)',
      goal: 0.5,
      p99Limit: 2,
      floor,
      opts: { url: `${base}${project}/obs/alerts?limit=50&filter=${filter}`, headers: auth },
    },
    {
      // A silence drafted from an alert's labels, widened by a regex: the labels' index narrows the rows read.
      name: 'POST preview, = and =~ (10k alerts)',
      goal: 0.25,
      p99Limit: 4,
      floor,
      opts: preview([
        { label: 'service', op: '=', value: 'svc-7' },
        { label: 'alertname', op: '=~', value: 'Disk.*|CPU.*' },
      ]),
    },
    {
      // No `=` matcher: every unresolved alert is read and tested.
      name: 'POST preview, =~ only (10k alerts)',
      goal: 0.25,
      p99Limit: 4,
      floor,
      opts: preview([{ label: 'instance', op: '=~', value: 'host-1[0-9]:.*' }]),
    },
    {
      name: 'POST 256 alerts, a resend, 1 client (10k alerts)',
      goal: null,
      opts: {
        url: `${base}/alertmanager/${p.orgId}/${p.projectId}/api/v2/alerts`,
        method: 'POST',
        headers: auth,
        connections: 1,
        requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, body: resend() }) }],
      },
    },
  ];
}

/** The hot routes, each with its goal (ratio to the floor); the readiness check is shown for reference. */
function hotRoutes(base: string, p: Prepared): Route[] {
  const auth = { authorization: `Bearer ${p.adminKey}`, 'content-type': 'application/json' };
  const project = `/v1/organizations/${p.orgId}/projects/${p.projectId}`;
  // Round-robin over one resource per connection, as real traffic writes many resources.
  const silencePath = (n: number) => `${project}/obs/silences/${p.silenceIds[n % p.silenceIds.length]}`;
  const subPath = (n: number) => `${project}/subscriptions/${p.subscriptionIds[n % p.subscriptionIds.length]}`;
  let n = 0;
  const patch = (headers: Record<string, string>, at: (n: number) => { path: string; body: string }) => ({
    url: base,
    method: 'PATCH' as const,
    headers,
    requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, ...at(++n) }) }],
  });
  const routes: Route[] = [
    { name: 'GET /v1/health (readiness, select 1)', goal: null, opts: { url: `${base}/v1/health` } },
    {
      name: 'PATCH silence comment (API key, If-Match)',
      goal: 0.5,
      opts: patch({ ...auth, 'if-match': '*' }, (i) => ({
        path: silencePath(i),
        body: JSON.stringify({ comment: `bench ${i}` }),
      })),
    },
    {
      // Against the line above: restrictions are checked from the cached key, so within a few percent of it.
      name: 'PATCH silence comment (restricted API key, If-Match)',
      goal: 0.5,
      opts: patch({ ...auth, authorization: `Bearer ${p.restrictedKey}`, 'if-match': '*' }, (i) => ({
        path: silencePath(i),
        body: JSON.stringify({ comment: `bench restricted ${i}` }),
      })),
    },
    {
      // One message to a queue whose one subscription is paused: stored for it, nothing sent meanwhile.
      name: 'POST publish 1 message (API key)',
      goal: 0.5,
      opts: {
        url: `${base}${project}/queues/${p.publishQueueId}/messages`,
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ messages: [{ body: { orderId: 42, total: '19.99' }, attributes: { kind: 'order' } }] }),
      },
    },
    {
      name: 'PATCH subscription batchSize (API key)',
      goal: 0.5,
      opts: patch(auth, (i) => ({
        path: subPath(i),
        body: JSON.stringify({ batchSize: (Math.floor(i / 16) % 10) + 1 }),
      })),
    },
  ];
  const keyList = {
    name: KEY_LIST,
    goal: 0.35,
    opts: { url: `${base}/v1/organizations/${p.orgId}/api-keys?limit=50`, headers: auth },
  };
  return [...routes, keyList, ...(ALERTS ? alertRoutes(base, p, keyList) : [])];
}

/** The main servers' logs (not the comparison runs'), whose slow requests are summarized per database. */
const mainLogs = new Map<Server, string>();

/**
 * Each route right after its own floor measurement, in BENCH_ROUNDS rounds of the whole route set (so a stall
 * shows in the round it fell in); a comparison run (`only`) measures its one route in one round.
 */
async function measureRoutes(server: Server, p: Prepared, meter: Meter, only?: string): Promise<Pair[]> {
  if (!only) mainLogs.set(server, server.log);
  // The JIT needs a few thousand requests: a cold floor costs several times its warm CPU per request.
  await load('warm-up', { url: `${server.base}${FLOOR}`, duration: WARM_UP_SECONDS });
  const routes = hotRoutes(server.base, p).filter(
    (r) => (!only || r.name === only) && (!ROUTES || r.name.includes(ROUTES)),
  );
  const floors = new Map(routes.flatMap((r) => (r.floor ? [[r.floor.name, r.floor.opts]] : [])));
  for (const opts of [...floors.values(), ...routes.map((r) => r.opts)])
    await load('warm-up', { ...opts, duration: WARM_UP_SECONDS });
  const pairs: Pair[] = [];
  for (let round = 0; round < (only ? 1 : ROUNDS); round++) {
    for (const r of routes) {
      await meter.settle?.();
      pairs.push({ ...(await floorAndRoute(server.base, r, meter)), goal: r.goal, p99Limit: r.p99Limit });
    }
  }
  return pairs;
}

async function withDirectory<T>(prefix: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  try {
    return await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function withServer<T>(port: number, env: Record<string, string>, fn: (s: Server) => Promise<T>): Promise<T> {
  const server = await startServer(port, env);
  try {
    return await fn(server);
  } finally {
    await stopServer(server);
  }
}

/** The routes on PGlite, then the key list again with per-key usage counting off (what the counting costs). */
async function benchPglite(): Promise<{ pairs: Pair[]; uncounted: Pair[]; queues: QueueFigures | null }> {
  return withDirectory('bench-pglite-', async (dir) => {
    const p = await prepare(50, { DATA_DIR: dir }, ALERTS);
    const pairs = await withServer(PORT, { DATA_DIR: dir }, (s) => measureRoutes(s, p, { appPid: s.child.pid! }));
    const uncounted = ROUTES
      ? []
      : await withServer(PORT, { DATA_DIR: dir, API_KEY_USAGE_COUNTING: '0' }, (s) =>
          measureRoutes(s, p, { appPid: s.child.pid! }, KEY_LIST),
        );
    const queues = !QUEUES
      ? null
      : await withServer(PORT, { DATA_DIR: dir, WEBHOOK_ALLOW_LOOPBACK: '1' }, (s) =>
          measureQueueDelivery([s.base], p, { appPids: [s.child.pid!] }),
        );
    if (queues) windows.push(...queues.windows);
    return { pairs, uncounted, queues };
  });
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

/** The routes on PostgreSQL, then the subscription PATCH again with the rate limits in memory (the store's cost). */
async function benchPostgres(): Promise<{
  pairs: Pair[];
  memoryStore: Pair[];
  uncached: Pair[];
  queues: QueueFigures | null;
}> {
  const database = `svc_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
  await admin.connect();
  await admin.query(`create database ${database}`);
  try {
    const env = { DATABASE_URL: `${PG_BASE}/${database}` };
    const p = await prepare(50, env, ALERTS);
    // The writes of one route leave the database a checkpoint and vacuums to do, which would run, on the
    // same two cores, during the next route's measurement (as pgbench, vacuum and checkpoint before each).
    const settle = async () => {
      const local = new pg.Client({ connectionString: env.DATABASE_URL });
      await local.connect();
      await local.query('vacuum analyze').finally(() => local.end());
      await admin.query('checkpoint');
    };
    const meter = (s: Server): Meter => ({ appPid: s.child.pid!, pg: { admin, database }, settle });
    const pairs = await withServer(PORT + 1, env, (s) => measureRoutes(s, p, meter(s)));
    const memoryStore = ROUTES
      ? []
      : await withServer(PORT + 1, { ...env, RATE_LIMIT_STORE: 'memory' }, (s) =>
          measureRoutes(s, p, meter(s), 'PATCH subscription batchSize (API key)'),
        );
    // The price of revocation that holds across instances: the design validates the auth caches with one
    // epoch read per request; the alternative is no auth caches at all.
    const uncached = ROUTES
      ? []
      : await withServer(PORT + 1, { ...env, AUTH_CACHE_TTL_MS: '0' }, (s) =>
          measureRoutes(s, p, meter(s), 'PATCH subscription batchSize (API key)'),
        );
    // Deliveries from two instances on the one PostgreSQL, as a deployment runs them.
    const delivering = { ...env, WEBHOOK_ALLOW_LOOPBACK: '1' };
    const queues = !QUEUES
      ? null
      : await withServer(PORT + 1, delivering, (a) =>
          withServer(PORT + 4, delivering, (b) =>
            measureQueueDelivery([a.base, b.base], p, {
              appPids: [a.child.pid!, b.child.pid!],
              pg: { admin, database },
            }),
          ),
        );
    if (queues) windows.push(...queues.windows);
    return { pairs, memoryStore, uncached, queues };
  } finally {
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
  }
}

async function listLatency(keys: number, port: number): Promise<number> {
  return withDirectory(`bench-list-${keys}-`, async (dir) => {
    const p = await prepare(keys, { DATA_DIR: dir });
    return withServer(port, { DATA_DIR: dir }, async (s) => {
      const url = `${s.base}/v1/organizations/${p.orgId}/api-keys?limit=50`;
      const headers = { authorization: `Bearer ${p.adminKey}` };
      await load('warm-up', { url, headers, duration: 2 });
      return (await load(`list at ${keys} keys`, { url, headers })).p50;
    });
  });
}

async function measureScale() {
  const verifications = await measureKeyVerification();
  console.log(
    `\nCached API key verification, in process: ${Math.round(verifications).toLocaleString('en')} per second (target ≥ 100,000: ${verifications >= 100_000 ? 'met' : 'MISSED'})`,
  );
  const small = await listLatency(1_000, PORT + 2);
  const large = await listLatency(100_000, PORT + 3);
  const listRatio = large / Math.max(small, 1);
  console.log(
    `Key list p50 (limit 50, PGlite): ${small.toFixed(1)} ms at 1,000 keys, ${large.toFixed(1)} ms at 100,000 keys: ${listRatio.toFixed(2)}× (target ≤ 1.5×: ${listRatio <= 1.5 ? 'met' : 'MISSED'})`,
  );
}

/** The slow-request summary of the main server measured last, once. */
async function printLatestSlowRequests(): Promise<void> {
  const logs = [...mainLogs.values()];
  mainLogs.clear();
  for (const log of logs) await printSlowRequests(log, SLOW_MS);
}

async function main() {
  if (!existsSync('.next/BUILD_ID')) throw new Error('Run `npm run build` first.');
  console.log(
    `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; load generator on the same machine.`,
  );
  console.log(
    `${CONNECTIONS} connections, ${SECONDS} s per route and as much of the floor, in ${SLICES} turns of ${SECONDS / SLICES} s each; ${ROUNDS} rounds of every route; floor = GET ${FLOOR}; background jobs running.`,
  );
  const results: { label: string; pairs: Pair[] }[] = [];

  if (DATABASES.includes('pglite')) {
    const { pairs, uncounted, queues } = await benchPglite();
    printRun('Embedded database (PGlite)', pairs);
    await printLatestSlowRequests();
    printRun('PGlite, per-key usage counting off (API_KEY_USAGE_COUNTING=0): compare the key list above', uncounted);
    if (queues) printQueueFigures('PGlite, one instance', queues, null);
    results.push({ label: 'PGlite', pairs });
  }
  if (DATABASES.includes('postgres')) {
    if (await postgresReachable()) {
      const { pairs, memoryStore, uncached, queues } = await benchPostgres();
      printRun('PostgreSQL (CPU of the app, and of its database backends)', pairs);
      await printLatestSlowRequests();
      printRun('PostgreSQL, rate limits in memory instead of the shared table (RATE_LIMIT_STORE=memory)', memoryStore);
      printRun('PostgreSQL, no auth caches (AUTH_CACHE_TTL_MS=0) instead of caches validated by the epoch', uncached);
      if (queues) printQueueFigures('PostgreSQL, two instances', queues, 0.2);
      results.push({ label: 'PostgreSQL', pairs });
    } else {
      console.log('\nPostgreSQL: not reachable, skipped.');
    }
  }
  printGoals(results);
  const profile = process.env.BENCH_CPU_PROF;
  if (profile) writeFileSync(path.join(profile, 'windows.json'), JSON.stringify(windows));
  if (process.env.BENCH_SCALE !== '0') await measureScale();
}

try {
  await main();
} finally {
  // The servers' logs: removed however the bench ends.
  rmSync(logDir, { recursive: true, force: true });
}
if (failures > 0) {
  console.error(`\n${failures} requests failed.`);
  process.exit(1);
}
