/**
 * `npm run drill:rolling`: three built instances on one fresh PostgreSQL database behind Debian's HAProxy, eight
 * clients reading and writing through it, and each instance restarted in turn: first with SIGTERM and the default
 * settings (no request may fail), then with SIGKILL (only the requests in flight on the killed instance may fail:
 * each failure must have been sent before a kill and failed right after it). Prints the counts; exits non-zero
 * when the SIGTERM roll failed any request, or a SIGKILL roll failed one that was not in flight at a kill.
 *
 * Environment: DRILL_PORT (6250: HAProxy; the instances the next three, HAProxy's stats page the one after),
 * DRILL_CLIENTS (8), DRILL_PAUSE_MS (20: each client's pause after an answer), DRILL_STEADY_MS (3000: load
 * before the first and after the last restart of a roll), DRILL_SIGNALS (`SIGTERM,SIGKILL`: the rolls),
 * PGURL_BASE (postgres://postgres@127.0.0.1:5432).
 * Run `npm run build` first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { consoleEnv, untilHealthy } from '../bench/server';
import {
  ensureHaproxy,
  haproxyConfig,
  requestLog,
  serverStates,
  startHaproxy,
  untilUp,
  type Logged,
} from './drill/haproxy';
import { startLoad, type Failure, type Prepared } from './drill/rolling-load';
import { SERVER_ARGS } from './server-node-flags.mjs';

const PORT = Number(process.env.DRILL_PORT ?? 6250);
const CLIENTS = Number(process.env.DRILL_CLIENTS ?? 8);
const PAUSE_MS = Number(process.env.DRILL_PAUSE_MS ?? 20);
const STEADY_MS = Number(process.env.DRILL_STEADY_MS ?? 3000);
const SIGNALS = (process.env.DRILL_SIGNALS ?? 'SIGTERM,SIGKILL').split(',') as Roll['signal'][];
const PG_BASE = process.env.PGURL_BASE ?? 'postgres://postgres@127.0.0.1:5432';
const database = `rolling_drill_${process.pid}`;
const databaseUrl = `${PG_BASE}/${database}`;
const names = ['a', 'b', 'c'];
const instancePort = (i: number) => PORT + 1 + i;
const statsPort = PORT + 4;
/** A request failing within this of an instance's death, sent before it, was in flight on it. */
const IN_FLIGHT_MS = 1_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Instance = { name: string; port: number; child: ChildProcess };

/** An instance as an operator runs it: `node scripts/start.mjs`, nothing set about shutdown. */
async function start(dir: string, i: number): Promise<Instance> {
  const port = instancePort(i);
  const log = createWriteStream(path.join(dir, `${names[i]}.log`), { flags: 'a' });
  const child = spawn(process.execPath, SERVER_ARGS, {
    // Sign-in links name HAProxy's address, the one clients use.
    env: consoleEnv(port, { DATABASE_URL: databaseUrl, NEXTAUTH_URL: `http://127.0.0.1:${PORT}`, LOG_LEVEL: 'warn' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  await untilHealthy(child, `http://127.0.0.1:${port}`);
  return { name: names[i], port, child };
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

function prepare(dir: string): Promise<Prepared> {
  const out = path.join(dir, 'prepared.json');
  const tsx = path.join('node_modules', 'tsx', 'dist', 'cli.mjs');
  const child = spawn(process.execPath, [tsx, 'bench/prepare.ts', '0', out], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return new Promise<Prepared>((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(readFileSync(out, 'utf8')) as Prepared) : reject(new Error('prepare failed')),
    ),
  );
}

type Roll = { signal: 'SIGTERM' | 'SIGKILL'; ok: number; failed: Failure[]; stray: Failure[]; seconds: number };

/** Restarts each instance in turn with `signal`, waiting for HAProxy to see it up again before the next. */
async function roll(
  dir: string,
  instances: Instance[],
  signal: Roll['signal'],
  load: ReturnType<typeof startLoad>,
  logged: Map<string, Logged>,
) {
  const began = Date.now();
  load.reset();
  await sleep(STEADY_MS);
  const windows: { name: string; from: number; died: number }[] = [];
  for (const [i, instance] of instances.entries()) {
    const from = Date.now();
    instance.child.kill(signal);
    await exited(instance.child);
    const died = Date.now();
    instances[i] = await start(dir, i);
    await untilUp(statsPort, instance.name);
    windows.push({ name: instance.name, from, died });
    console.log(
      `  ${signal} ${instance.name}: back and up in HAProxy after ${((Date.now() - from) / 1000).toFixed(1)} s`,
    );
  }
  await sleep(STEADY_MS);
  const { ok, failed } = load.counts();
  // HAProxy's log names the server of a request whose answer never came, and how the session ended.
  for (const f of failed) {
    const entry = logged.get(f.id);
    if (entry)
      Object.assign(f, { server: entry.server, error: `${f.error ?? f.status}, HAProxy ${entry.termination}` });
  }
  // A SIGKILL may fail only what the instance held as it died: sent before it was gone (a big process takes some
  // 100 ms to go after the signal), failed as it went. HAProxy closes the client's connection for those (no answer
  // to carry a server name), so time tells.
  const stray = failed.filter(
    (f) => !windows.some((w) => f.sent <= w.died && f.at >= w.from && f.at - w.died < IN_FLIGHT_MS),
  );
  for (const f of failed) {
    const kill = windows.filter((w) => w.from <= f.at).at(-1);
    const since = (t: number) => (kill ? `${t - kill.from} ms` : 'before any kill');
    const gone = kill ? `; it was gone ${kill.died - kill.from} ms after the signal` : '';
    console.log(
      `    ${f.request} (${f.id}): sent ${since(f.sent)}, failed ${since(f.at)} after signalling ${kill?.name}${gone}`,
    );
  }
  return { signal, ok, failed, stray, seconds: (Date.now() - began) / 1000 };
}

function report(r: Roll): void {
  console.log(
    `${r.signal} roll: ${r.ok + r.failed.length} requests in ${r.seconds.toFixed(0)} s, ${r.ok} answered 2xx, ` +
      `${r.failed.length} failed` +
      (r.signal === 'SIGKILL'
        ? `: ${r.failed.length - r.stray.length} in flight on a killed instance (sent before it was gone, failed as ` +
          `it went), ${r.stray.length} otherwise`
        : ''),
  );
  const kinds = new Map<string, number>();
  for (const f of r.failed) {
    const kind = `${f.request} -> ${f.error ?? f.status} via ${f.server}`;
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  for (const [kind, n] of kinds) console.log(`    ${n} × ${kind}`);
}

async function main(): Promise<number> {
  if (!existsSync(path.join('.next', 'BUILD_ID'))) throw new Error('No production build: run `npm run build` first.');
  ensureHaproxy();
  const admin = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
  await admin.connect();
  await admin.query(`create database ${database}`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-drill-rolling-'));
  const instances: Instance[] = [];
  let haproxy: ChildProcess | undefined;
  try {
    const prepared = await prepare(dir);
    instances.push(...(await Promise.all(names.map((_, i) => start(dir, i)))));
    const config = haproxyConfig(
      PORT,
      statsPort,
      instances.map((s) => ({ name: s.name, port: s.port })),
    );
    haproxy = startHaproxy(dir, config);
    const logged = requestLog(haproxy, path.join(dir, 'haproxy.log'));
    for (const s of instances) await untilUp(statsPort, s.name);
    console.log(`HAProxy on ${PORT} in front of ${names.join(', ')}: ${CLIENTS} clients, ${PAUSE_MS} ms pauses.`);
    const load = startLoad(`http://127.0.0.1:${PORT}`, prepared, CLIENTS, PAUSE_MS);
    const rolls: Roll[] = [];
    for (const signal of SIGNALS) rolls.push(await roll(dir, instances, signal, load, logged));
    await load.stop();
    rolls.forEach(report);
    console.log(`HAProxy sees: ${[...(await serverStates(statsPort))].map(([n, s]) => `${n} ${s}`).join(', ')}`);
    const passed = rolls.every((r) => (r.signal === 'SIGTERM' ? r.failed : r.stray).length === 0);
    console.log(passed ? 'drill passed' : `drill FAILED (instance logs in ${dir})`);
    if (passed) rmSync(dir, { recursive: true, force: true });
    return passed ? 0 : 1;
  } finally {
    haproxy?.kill('SIGTERM');
    for (const s of instances) s.child.kill('SIGKILL');
    await Promise.all(instances.map((s) => exited(s.child)));
    await admin.query(`drop database if exists ${database} with (force)`).catch(() => {});
    await admin.end();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
