import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { baseURL } from './env';

const run = promisify(execFile);

/** The family's base for a project: what `--alertmanager.url` and Grafana's data source are given. */
export const alertmanagerBase = (orgId: string, projectId: string, origin = baseURL) =>
  `${origin}/alertmanager/${orgId}/${projectId}`;

export type AmtoolAuth = { bearer: string } | { basic: string } | null;

export type AmtoolResult = { code: number; stdout: string; stderr: string };

/**
 * Runs Debian's real `amtool` against a base URL, with a home of its own (no amtool.yml of the machine's) and
 * the credential as amtool's own http config (Bearer) or in the URL's user-info (Basic, as Grafana sends it).
 */
export async function amtool(base: string, auth: AmtoolAuth, args: string[]): Promise<AmtoolResult> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'amtool-'));
  const url = new URL(base);
  const flags = [];
  if (auth && 'bearer' in auth) {
    const config = path.join(home, 'http.yml');
    writeFileSync(config, `authorization:\n  type: Bearer\n  credentials: ${JSON.stringify(auth.bearer)}\n`);
    flags.push(`--http.config.file=${config}`);
  } else if (auth) {
    url.username = 'grafana';
    url.password = auth.basic;
  }
  try {
    const { stdout, stderr } = await run('amtool', [`--alertmanager.url=${url}`, ...flags, ...args], {
      env: { ...process.env, HOME: home, USER: 'amtool-user' },
      timeout: 20_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}
