/**
 * `npx tsx bench/audit.ts`: what the audit log costs. On a database with 100,000 events: the peak RSS of the
 * server while it streams them all as NDJSON (flat memory: one keyset batch at a time), then the hot PATCH
 * (subscription batchSize) when it writes an event (the value changes) against when it writes none.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { SERVER_ARGS } from '../scripts/server-node-flags.mjs';

const PORT = Number(process.env.BENCH_PORT ?? 3330);
const EVENTS = Number(process.env.BENCH_AUDIT_EVENTS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const base = `http://127.0.0.1:${PORT}`;

function run(args: string[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${args.join(' ')} exited ${code}`))));
  });
}

/** Resident memory of the server process tree (start.mjs and the Next server it spawns), in MiB. */
function rssMiB(pid: number): number {
  const status = (p: number) => readFileSync(`/proc/${p}/status`, 'utf8');
  const kib = (p: number) => Number(/VmRSS:\s+(\d+)/.exec(status(p))?.[1] ?? 0);
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  return (kib(pid) + children.map(Number).reduce((sum, c) => sum + kib(c), 0)) / 1024;
}

async function start(dir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, SERVER_ARGS, {
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      NEXTAUTH_SECRET: 'bench-secret-0123456789abcdefghij',
      RATE_LIMIT_REQUESTS: '100000000',
      SEED_DEMO: '0',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 150; i++) {
    await new Promise((r) => setTimeout(r, 200));
    if (
      await fetch(`${base}/v1/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return child;
  }
  child.kill();
  throw new Error('server did not become healthy');
}

async function patchLoad(headers: Record<string, string>, path: (n: number) => string, body: (n: number) => unknown) {
  let n = 0;
  const result = await autocannon({
    url: base,
    method: 'PATCH',
    connections: 16,
    duration: SECONDS,
    headers,
    requests: [{ setupRequest: (req) => ({ ...req, path: path(++n), body: JSON.stringify(body(n)) }) }],
  });
  if (result.non2xx + result.errors) throw new Error(`${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-audit-'));
  const out = path.join(dir, 'prepared.json');
  try {
    await run(['bench/prepare.ts', '50', out], { DATA_DIR: dir });
    await run(['bench/audit-fill.ts', String(EVENTS)], { DATA_DIR: dir });
    const p = JSON.parse(readFileSync(out, 'utf8')) as {
      adminKey: string;
      orgId: string;
      projectId: string;
      subscriptionIds: string[];
    };
    const server = await start(dir);
    try {
      const headers = { authorization: `Bearer ${p.adminKey}`, 'content-type': 'application/json' };
      await fetch(`${base}/v1/organizations/${p.orgId}/audit-events?limit=1`, { headers }); // compile and warm
      const before = rssMiB(server.pid!);
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(server.pid!))), 25);
      const began = Date.now();
      const res = await fetch(`${base}/v1/organizations/${p.orgId}/audit-events/export?format=ndjson`, { headers });
      let bytes = 0;
      let lines = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        bytes += chunk.length;
        for (const b of chunk) if (b === 10) lines += 1;
      }
      clearInterval(sampler);
      console.log(
        `Export of ${lines.toLocaleString('en')} events (${(bytes / 2 ** 20).toFixed(0)} MiB NDJSON) in ${((Date.now() - began) / 1000).toFixed(1)} s: ` +
          `server RSS ${before.toFixed(0)} MiB before, peak ${peak.toFixed(0)} MiB while streaming (+${(peak - before).toFixed(0)} MiB).`,
      );

      const project = `/v1/organizations/${p.orgId}/projects/${p.projectId}/subscriptions/`;
      const sub = (n: number) => `${project}${p.subscriptionIds[n % p.subscriptionIds.length]}`;
      await patchLoad(headers, sub, () => ({ batchSize: 3 })); // warm-up, and every batchSize is now 3
      const unchanged = await patchLoad(headers, sub, () => ({ batchSize: 3 }));
      const changed = await patchLoad(headers, sub, (n) => ({
        batchSize: (Math.floor(n / 16) % 9) + 1 === 3 ? 4 : (Math.floor(n / 16) % 9) + 1,
      }));
      console.log(`PATCH subscription batchSize, 16 connections, ${SECONDS} s each (PGlite):`);
      console.log(
        `  no change, no event: ${unchanged.rps.toFixed(0)} req/s, p50 ${unchanged.p50} ms, p99 ${unchanged.p99} ms`,
      );
      console.log(
        `  changed + its event: ${changed.rps.toFixed(0)} req/s, p50 ${changed.p50} ms, p99 ${changed.p99} ms`,
      );
    } finally {
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await exited;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
