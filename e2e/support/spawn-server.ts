import { spawn, type ChildProcess } from 'node:child_process';
import { E2E } from './env';

export type Spawned = { url: string; child: ChildProcess; output: () => string; stop: () => Promise<void> };

/** Starts another app process (`npm start`'s script) with extra env, waiting until /v1/health answers 200. */
export async function spawnServer(port: number, env: Record<string, string>): Promise<Spawned> {
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    env: {
      ...process.env,
      NEXTAUTH_SECRET: E2E.secret,
      ENCRYPTION_KEY: E2E.encryptionKey,
      HOST: '127.0.0.1',
      PORT: String(port),
      SEED_DEMO: '0',
      // On PostgreSQL a stop would otherwise wait out the default grace; the grace has tests of its own.
      SHUTDOWN_GRACE_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  for (let i = 0; i < 150; i++) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}:\n${output}`);
    if (
      await fetch(`${url}/v1/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { url, child, output: () => output, stop };
    await new Promise((r) => setTimeout(r, 200));
  }
  await stop();
  throw new Error(`server on ${port} never became healthy:\n${output}`);
}
