// What the benches share: starting the built console for a measurement, and signing a user in to it.
import { spawn, type ChildProcess } from 'node:child_process';
import { postCredentials } from '../e2e/support/credentials';
import { SERVER_ARGS } from '../scripts/server-node-flags.mjs';

/** The environment of a bench's server: fixed secrets, limits out of the way, no demo data unless asked for. */
export const BENCH_SERVER_ENV = {
  NEXTAUTH_SECRET: 'bench-secret-0123456789abcdefghij',
  ENCRYPTION_KEY: 'YmVuY2gtb25seS1lbmNyeXB0aW9uLWtleS0zMmJ5dGU=',
  RATE_LIMIT_REQUESTS: '100000000',
  SEED_DEMO: '0',
};

/**
 * The environment of a console process on 127.0.0.1:`port`: this process's, the bench's, and `env` last; its
 * NEXTAUTH_URL is that address unless `env` names another (a proxy in front).
 */
export function consoleEnv(port: number, env: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...BENCH_SERVER_ENV,
    PORT: String(port),
    HOST: '127.0.0.1',
    NEXTAUTH_URL: `http://127.0.0.1:${port}`,
    ...env,
  };
}

/** Waits until `base` answers `GET /v1/health` with 200; kills `child` and throws after `tries` × 200 ms. */
export async function untilHealthy(child: ChildProcess, base: string, tries = 600): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (child.exitCode !== null) throw new Error(`the console exited (${child.exitCode}) before it was healthy`);
    await new Promise((r) => setTimeout(r, 200));
    const ok = await fetch(`${base}/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
  }
  child.kill();
  throw new Error('the console did not become healthy');
}

/**
 * `npm start`'s script (or `args`, to Node) on 127.0.0.1:`port` with the bench's environment and `env`, once it is
 * healthy; its log goes to `stdout` (a file descriptor) when given.
 */
export async function startConsole(
  port: number,
  env: Record<string, string>,
  args = SERVER_ARGS,
  stdout: 'ignore' | number = 'ignore',
): Promise<ChildProcess> {
  // A server left over from an interrupted run would answer in this one's place.
  const taken = await fetch(`http://127.0.0.1:${port}/v1/health/live`).then(
    () => true,
    () => false,
  );
  if (taken) throw new Error(`127.0.0.1:${port} is already serving: stop that process first`);
  const child = spawn(process.execPath, args, {
    env: consoleEnv(port, env),
    stdio: ['ignore', stdout, 'inherit'],
  });
  await untilHealthy(child, `http://127.0.0.1:${port}`);
  return child;
}

/** Stops a server with SIGTERM and waits for it to exit. */
export async function stopConsole(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** The session cookie (`name`, `value`) of `email`, from next-auth's credentials callback. */
export async function signIn(base: string, email: string, password: string): Promise<{ name: string; value: string }> {
  const res = await postCredentials(base, { email, password });
  const session = res.headers.getSetCookie().find((c) => c.includes('session-token='));
  if (!session) throw new Error(`sign-in failed: ${res.status}`);
  const [name, value] = session.split(';')[0].split('=');
  return { name, value };
}
