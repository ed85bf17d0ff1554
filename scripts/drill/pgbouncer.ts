// Debian's PgBouncer in transaction mode, in front of the machine's PostgreSQL, for `npm run drill:pooler`.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const BINARY = '/usr/sbin/pgbouncer';

/** Installs Debian's pgbouncer when it is missing (as root; else says how). */
export function ensurePgbouncer(): void {
  if (spawnSync(BINARY, ['--version']).status === 0) return;
  if (process.getuid?.() !== 0) throw new Error('pgbouncer is missing: apt-get install -y pgbouncer');
  console.error("Installing Debian's pgbouncer…");
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', 'pgbouncer'],
  ]) {
    const done = spawnSync('apt-get', args, { env, stdio: 'inherit' });
    if (done.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed`);
  }
}

export type Pgbouncer = {
  url: (database: string) => string;
  stats: (database: string) => Promise<PoolerStats>;
  stop: () => Promise<void>;
};
/** PgBouncer's counters for one database since it started: transactions and statements it passed on. */
export type PoolerStats = { xacts: number; queries: number };

/**
 * Starts PgBouncer on 127.0.0.1:`port` with pool_mode=transaction, as Debian 1.18 ships it (no protocol-level
 * prepared statements). It refuses to run as root: as root it runs as `postgres`, which must read its files.
 */
export async function startPgbouncer(
  port: number,
  upstream: { host: string; port: number; user: string },
): Promise<Pgbouncer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-pgbouncer-'));
  chmodSync(dir, 0o755);
  const config = path.join(dir, 'pgbouncer.ini');
  const users = path.join(dir, 'userlist.txt');
  writeFileSync(users, `"${upstream.user}" ""\n`, { mode: 0o644 });
  writeFileSync(
    config,
    [
      '[databases]',
      `* = host=${upstream.host} port=${upstream.port}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${users}`,
      'pool_mode = transaction',
      'max_client_conn = 500',
      'default_pool_size = 20',
      // node-postgres sends none of these, but other clients (psql, postgres-js) do.
      'ignore_startup_parameters = extra_float_digits,options,statement_timeout',
      `admin_users = ${upstream.user}`,
      `stats_users = ${upstream.user}`,
      // SHOW STATS totals are refreshed once per period: per second, so a phase's figures are read after it.
      'stats_period = 1',
      'log_connections = 0',
      'log_disconnections = 0',
      '',
    ].join('\n'),
    { mode: 0o644 },
  );
  const asRoot = process.getuid?.() === 0;
  const child = spawn(BINARY, asRoot ? ['-u', 'postgres', config] : [config], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const url = (database: string) => `postgres://${upstream.user}@127.0.0.1:${port}/${database}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; i < 50; i++) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited ${child.exitCode}:\n${output}`);
    const probe = new pg.Client({ connectionString: url('postgres'), connectionTimeoutMillis: 1000 });
    const up = await probe.connect().then(
      () => true,
      () => false,
    );
    await probe.end().catch(() => {});
    if (up) return { url, stats: (database) => poolerStats(url('pgbouncer'), database), stop };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error(`pgbouncer never accepted a connection:\n${output}`);
}

/** SHOW STATS on PgBouncer's admin console (simple protocol only: no parameters). */
async function poolerStats(adminUrl: string, database: string): Promise<PoolerStats> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ database: string; total_xact_count: string; total_query_count: string }>(
      'SHOW STATS',
    );
    const row = rows.find((r) => r.database === database);
    return { xacts: Number(row?.total_xact_count ?? 0), queries: Number(row?.total_query_count ?? 0) };
  } finally {
    await admin.end();
  }
}
