import { spawn, type ChildProcess } from 'node:child_process';
import { SERVER_ARGS } from '../../scripts/server-node-flags.mjs';
import { E2E } from './env';

/** A process a test started: what it printed so far, and how to stop it. */
export type Running = { child: ChildProcess; output: () => string; stop: () => Promise<void> };
export type Spawned = Running & { url: string };

/** The processes tests started and have not seen exit. */
const started = new Set<ChildProcess>();
let stopsAtExit = false;
function stopAtExit(): void {
  if (stopsAtExit) return;
  stopsAtExit = true;
  process.once('exit', () => {
    for (const child of started) child.kill('SIGTERM');
  });
}

/**
 * Starts `command`, keeping what it prints; `stop` sends SIGTERM and waits until it has exited. One never stopped
 * (its test timed out in a hook before it could keep the handle) gets SIGTERM when this test process exits: a server
 * left running would go on claiming the next run's rows from a database of the same name.
 */
export function startProcess(command: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Running {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  started.add(child);
  stopAtExit();
  child.once('exit', () => started.delete(child));
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  return { child, output: () => output, stop };
}

/**
 * Polls `url` every 200 ms, for 90 s at most, until it answers 2xx. Throws with what `running` printed when it
 * exits first, and stops it when it never answers. A fresh embedded database runs every migration at its first
 * start, which takes a minute on a slow machine busy with the other suite.
 */
export async function untilReady(running: Running, url: string, name: string): Promise<void> {
  for (const deadline = Date.now() + 90_000; Date.now() < deadline;) {
    if (running.child.exitCode !== null)
      throw new Error(`${name} exited ${running.child.exitCode}:\n${running.output()}`);
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 200));
  }
  await running.stop();
  throw new Error(`${name} never became ready:\n${running.output()}`);
}

/** The environment `npm start`'s script runs with in these tests: the suite's secrets, on 127.0.0.1, then `env`. */
function appEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NEXTAUTH_SECRET: E2E.secret,
    ENCRYPTION_KEY: E2E.encryptionKey,
    HOST: '127.0.0.1',
    ...env,
  };
}

/** Starts an app process as `npm start` does (its script and Node flags), with the suite's env and `env`. */
export function startApp(env: Record<string, string>): Running {
  return startProcess(process.execPath, SERVER_ARGS, appEnv(env));
}

/** Starts another app process as `npm start` does, with extra env, once /v1/health answers 200. */
export async function spawnServer(port: number, env: Record<string, string>): Promise<Spawned> {
  const url = `http://127.0.0.1:${port}`;
  // A process left over on the port (an interrupted run's) would answer in this one's place.
  const taken = await fetch(`${url}/v1/health/live`).then(
    () => true,
    () => false,
  );
  if (taken) throw new Error(`127.0.0.1:${port} is already serving: stop that process first.`);
  // On PostgreSQL a stop would otherwise wait out the default grace; the grace has tests of its own.
  const running = startApp({ PORT: String(port), SEED_DEMO: '0', SHUTDOWN_GRACE_MS: '0', ...env });
  await untilReady(running, `${url}/v1/health`, `server on ${port}`);
  return { url, ...running };
}
