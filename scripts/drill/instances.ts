// Two built instances behind the pooler, a webhook receiver, and the demo data's ids, for `npm run drill:pooler`.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SERVER_ARGS } from '../server-node-flags.mjs';

export type Instance = { name: string; url: string; child: ChildProcess; stop: () => Promise<void> };

/** `npm start`'s script on 127.0.0.1:`port`, waiting until /v1/health answers 200. */
export async function startInstance(name: string, port: number, env: Record<string, string>): Promise<Instance> {
  // On PostgreSQL DATA_DIR holds only the admin socket: a temporary one per instance, removed after.
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'svc-drill-'));
  const child = spawn(process.execPath, SERVER_ARGS, {
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`instance ${name} exited ${child.exitCode}:\n${output}`);
    const up = await fetch(`${url}/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { name, url, child, stop };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error(`instance ${name} never became healthy:\n${output}`);
}

/** Secrets every instance of the drill shares, fresh for each run. */
export const sharedSecrets = () => ({
  NEXTAUTH_SECRET: randomBytes(32).toString('base64url'),
  ENCRYPTION_KEY: randomBytes(32).toString('base64url'),
});

/** Records the webhook-id of every delivery and answers 204. */
export async function startReceiver(port: number) {
  const ids = new Map<string, number>();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      ids.set(id, (ids.get(id) ?? 0) + 1);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}/hook`,
    ids,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An instance's webhook attempts so far (sent and failed), from its /metrics. */
export async function attemptsMadeBy(instance: Instance, token: string): Promise<number> {
  const text = await (await fetch(`${instance.url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
  return value('svc_webhook_deliveries_sent_total') + value('svc_webhook_deliveries_failed_total');
}
