import { spawn } from 'node:child_process';
import { get } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SERVER_ARGS } from '../../scripts/server-node-flags.mjs';
import { expect, test } from '../fixtures';
import { E2E } from '../support/env';
import { spawnServer } from '../support/spawn-server';

const health = (url: string) => fetch(`${url}/v1/health`);
/** The answer's status and Connection header, as the socket carried them (fetch hides hop-by-hop headers). */
const connectionOf = (url: string) =>
  new Promise<{ status: number; connection: string | undefined }>((resolve, reject) =>
    get(url, (res) => {
      res.resume();
      resolve({ status: res.statusCode!, connection: res.headers.connection });
    }).on('error', reject),
  );
const exited = (child: { once: (e: 'exit', f: (code: number | null) => void) => void }) =>
  new Promise<number | null>((resolve) => child.once('exit', resolve));

test.describe('signals and log readers', () => {
  test.describe.configure({ timeout: 120_000 });

  test('from SIGTERM on, /v1/health answers 503 while the server still serves; then it exits 0', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-term-'));
    const server = await spawnServer(E2E.port + 41, { DATA_DIR: dir, SHUTDOWN_GRACE_MS: '600000' });
    try {
      expect((await health(server.url)).status).toBe(200);
      const exit = exited(server.child);
      server.child.kill('SIGTERM');
      // The grace period keeps the listener open, so this asks the process that received the signal.
      let res = await health(server.url);
      for (let i = 0; i < 50 && res.status === 200; i++) res = await health(server.url);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(await res.json()).toEqual({
        error: { code: 'unavailable', message: 'The server is shutting down.' },
      });
      // Still serving, and each connection closes after its answer, so a balancer's next one goes elsewhere.
      expect(await connectionOf(`${server.url}/v1/health/live`)).toEqual({ status: 200, connection: 'close' });
      server.child.kill('SIGTERM'); // a second signal ends the grace period
      expect(await exit).toBe(0);
      expect(server.output()).not.toMatch(/error/i);
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('before SIGTERM a connection is kept alive', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-alive-'));
    const server = await spawnServer(E2E.port + 41, { DATA_DIR: dir });
    try {
      expect(await connectionOf(`${server.url}/v1/health/live`)).toEqual({ status: 200, connection: 'keep-alive' });
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('on PostgreSQL the default grace keeps serving after SIGTERM, with /v1/health at 503; a second signal ends it', async () => {
    test.skip(!process.env.DATABASE_URL, 'the default grace is 0 on the embedded database');
    const server = await spawnServer(E2E.port + 41, { DATABASE_URL: process.env.DATABASE_URL!, SHUTDOWN_GRACE_MS: '' });
    try {
      const exit = exited(server.child);
      server.child.kill('SIGTERM');
      let res = await health(server.url);
      for (let i = 0; i < 50 && res.status === 200; i++) res = await health(server.url);
      expect(res.status).toBe(503);
      server.child.kill('SIGTERM');
      expect(await exit).toBe(0);
    } finally {
      await server.stop();
    }
  });

  test('a log reader that goes away (EPIPE) never stops the server: every request is still answered', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-epipe-'));
    // Its own rate-limit counters: on PostgreSQL other servers' requests from 127.0.0.1 share the default ones.
    const server = await spawnServer(E2E.port + 42, {
      DATA_DIR: dir,
      ANON_RATE_LIMIT: '100000',
      RATE_LIMIT_NAMESPACE: `epipe-${Date.now()}-`,
    });
    try {
      server.child.stdout!.destroy();
      server.child.stderr!.destroy();
      const statuses: number[] = [];
      // Each request writes its log line into the closed pipe.
      for (let i = 0; i < 100; i++) {
        statuses.push((await fetch(`${server.url}/v1/health`)).status);
        statuses.push((await fetch(`${server.url}/v1/organizations`)).status);
      }
      expect(statuses.filter((s, i) => s !== (i % 2 === 0 ? 200 : 401))).toEqual([]);
      expect(server.child.exitCode).toBeNull();
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

test.describe('the embedded database after kill -9 of a holder its parent has not reaped', () => {
  test.skip(!!process.env.DATABASE_URL, 'PGlite only');
  // Ten server starts: about two minutes on a machine busy with the other suites, more on a slower one.
  test.describe.configure({ timeout: 360_000 });

  test('the first restart on the same DATA_DIR starts, 5 trials; a second live process is still refused', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-zombie-'));
    const port = E2E.port + 43;
    try {
      for (let trial = 0; trial < 5; trial++) {
        // The exec'd sleep is the server's parent and never reaps it: after kill -9 it stays a zombie.
        const parent = spawn('sh', ['-c', `node ${SERVER_ARGS.join(' ')} >/dev/null 2>&1 & echo $!; exec sleep 600`], {
          env: { ...process.env, NEXTAUTH_SECRET: E2E.secret, PORT: String(port), DATA_DIR: dir, SEED_DEMO: '0' },
          stdio: ['ignore', 'pipe', 'ignore'],
        });
        try {
          const pid = await new Promise<number>((resolve) =>
            parent.stdout!.once('data', (d) => resolve(Number(String(d)))),
          );
          let up = false;
          for (let i = 0; i < 300 && !up; i++) {
            up = await health(`http://127.0.0.1:${port}`).then(
              (r) => r.ok,
              () => false,
            );
            if (!up) await new Promise((r) => setTimeout(r, 200));
          }
          expect(up).toBe(true);
          if (trial === 0)
            await expect(spawnServer(port + 1, { DATA_DIR: dir })).rejects.toThrow(/in use by another process/);
          process.kill(pid, 'SIGKILL');
          const state = () => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1][0];
          while (state() !== 'Z') await new Promise((r) => setImmediate(r));
          const restarted = await spawnServer(port + 1, { DATA_DIR: dir });
          expect((await health(restarted.url)).status).toBe(200);
          await restarted.stop();
        } finally {
          parent.kill('SIGKILL');
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
