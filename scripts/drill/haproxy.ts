// HAProxy (Debian's) in front of the drill's instances: its config, its process, and which servers it sees up.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Installs Debian's haproxy when it is missing (the drill runs as root on this project's machines). */
export function ensureHaproxy(): void {
  if (spawnSync('haproxy', ['-v']).status === 0) return;
  console.log('haproxy is missing: installing Debian’s package.');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', 'haproxy'],
  ])
    if (spawnSync('apt-get', args, { stdio: 'inherit', env }).status !== 0)
      throw new Error(`apt-get ${args.join(' ')} failed`);
}

/**
 * The backend docs/deploy.md gives: health checks on /v1/health every second, down after 2 failures, up after
 * 2 passes; a connection refused is retried on another server. Each answer names the server that gave it (HAProxy's
 * own 502s too), so a failure is pinned to an instance.
 */
export function haproxyConfig(port: number, statsPort: number, servers: { name: string; port: number }[]): string {
  return [
    'global',
    '  maxconn 512',
    '  log stdout format raw local0',
    'defaults',
    '  mode http',
    '  log global',
    // The client's request id, the server, the status and how the session ended, for every request.
    '  log-format "%hr %s %ST %tsc"',
    '  timeout connect 2s',
    '  timeout client 30s',
    '  timeout server 30s',
    '  retries 3',
    '  option redispatch',
    'frontend drill',
    `  bind 127.0.0.1:${port}`,
    '  capture request header x-drill-id len 40',
    '  default_backend svc',
    'backend svc',
    '  balance roundrobin',
    '  option httpchk GET /v1/health',
    '  http-check expect status 200',
    '  default-server inter 1s fall 2 rise 2',
    '  http-after-response set-header x-drill-server %s',
    ...servers.map((s) => `  server ${s.name} 127.0.0.1:${s.port} check`),
    'listen stats',
    `  bind 127.0.0.1:${statsPort}`,
    '  stats enable',
    '  stats uri /stats',
    '',
  ].join('\n');
}

export function startHaproxy(dir: string, config: string): ChildProcess {
  const file = path.join(dir, 'haproxy.cfg');
  writeFileSync(file, config);
  const check = spawnSync('haproxy', ['-c', '-q', '-f', file], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`haproxy refuses its config:\n${check.stderr}`);
  return spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'inherit'] });
}

export type Logged = { server: string; status: string; termination: string };

/** What HAProxy logged of each request, by the client's x-drill-id. */
export function requestLog(haproxy: ChildProcess, file: string): Map<string, Logged> {
  const logged = new Map<string, Logged>();
  let rest = '';
  haproxy.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    appendFileSync(file, chunk);
    const lines = (rest + chunk).split('\n');
    rest = lines.pop()!;
    for (const line of lines) {
      const [id, server, status, termination] = line.split(' ');
      if (id?.startsWith('{')) logged.set(id.slice(1, -1), { server, status, termination });
    }
  });
  return logged;
}

/** The state HAProxy's checks give each server (`UP`, `DOWN`, `UP 1/2`…), from its stats page. */
export async function serverStates(statsPort: number): Promise<Map<string, string>> {
  const csv = await (await fetch(`http://127.0.0.1:${statsPort}/stats;csv`)).text();
  const states = new Map<string, string>();
  for (const line of csv.split('\n')) {
    const fields = line.split(',');
    if (fields[0] === 'svc' && fields[1] !== 'BACKEND' && fields[1] !== 'FRONTEND') states.set(fields[1], fields[17]);
  }
  return states;
}

/** Waits until HAProxy sees `name` as up (its checks passed `rise` times). */
export async function untilUp(statsPort: number, name: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if ((await serverStates(statsPort).catch(() => new Map<string, string>())).get(name) === 'UP') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`HAProxy never saw ${name} up`);
}
