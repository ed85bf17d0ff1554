import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { expect } from '@playwright/test';
import { sessionFor, type DemoUser } from '../fixtures';
import { baseURL } from './env';
import { tempDir } from './temp-dir';

const SVC = path.resolve('cli/bin/svc.mjs');

/** An address nothing listens on (a port just freed): requests to it fail to connect at once. */
export async function closedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

export type CliResult = { code: number | null; stdout: string; stderr: string };
export type CliEnv = Record<string, string | undefined>;

/** A fresh config directory, as a new user's machine would have. */
export function newConfigDir(): string {
  return tempDir('svc-cli-config-');
}

function cliEnv(configDir: string, env: CliEnv): CliEnv {
  const base: CliEnv = { PATH: process.env.PATH, HOME: configDir, SVC_CONFIG_DIR: configDir, ORGS_URL: baseURL };
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete base[name];
    else base[name] = value;
  }
  return base;
}

/** Starts the real `svc` as a user would run it, with its own config directory. */
export function spawnCli(
  args: string[],
  configDir: string,
  env: CliEnv = {},
): { child: ChildProcess; result: Promise<CliResult>; stderrSoFar: () => string } {
  const child = spawn(process.execPath, [SVC, ...args], {
    env: cliEnv(configDir, env) as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const result = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return { child, result, stderrSoFar: () => stderr };
}

export function runCli(args: string[], configDir: string, env: CliEnv = {}): Promise<CliResult> {
  return spawnCli(args, configDir, env).result;
}

/** Resolves with the first match of `pattern` in the CLI's stderr (the login prints its code there). */
export async function waitForStderr(cli: ReturnType<typeof spawnCli>, pattern: RegExp): Promise<RegExpMatchArray> {
  for (;;) {
    const match = cli.stderrSoFar().match(pattern);
    if (match) return match;
    if (cli.child.exitCode !== null) throw new Error(`svc exited before printing ${pattern}: ${cli.stderrSoFar()}`);
    await Promise.race([new Promise((resolve) => cli.child.stderr!.once('data', resolve)), cli.result]);
  }
}

export const USER_CODE = /one-time code: ([A-Z]{4}-[A-Z]{4})/;
/** The last line `svc login` prints before it waits: by then the code is printed too. */
export const LOGIN_LINK = /or open (\S+) directly/;

type SavedCredentials = { accessToken: string; refreshToken: string; expiresAt: string };

export function savedConfig(configDir: string): {
  servers: Record<string, { credentials?: SavedCredentials; defaultOrg?: string }>;
} {
  return JSON.parse(readFileSync(path.join(configDir, 'credentials.json'), 'utf8'));
}

export function savedCredentials(configDir: string): SavedCredentials {
  const credentials = savedConfig(configDir).servers[baseURL]?.credentials;
  if (!credentials) throw new Error('no saved credentials');
  return credentials;
}

/** `svc login`, approved through the console's endpoint as the given demo user. */
export async function login(user: DemoUser, configDir: string): Promise<CliResult> {
  const cli = spawnCli(['login'], configDir);
  const [, link] = await waitForStderr(cli, LOGIN_LINK);
  const [, userCode] = cli.stderrSoFar().match(USER_CODE)!;
  expect(link).toBe(`${baseURL}/device?user_code=${userCode}`);
  const session = await sessionFor(user);
  expect((await session.post(`/v1/device-authorizations/${userCode}/approve`)).status()).toBe(200);
  await session.dispose();
  const result = await cli.result;
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toBe('');
  expect(result.stderr).toContain(`Logged in to ${baseURL}`);
  return result;
}
