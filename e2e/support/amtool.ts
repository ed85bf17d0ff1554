import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, type APIRequestContext } from '@playwright/test';
import type { Demo } from '../fixtures';
import { createKey } from './api-keys';
import { baseURL } from './env';
import type { Silence } from './silences';

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
  } finally {
    // Its http.yml holds the key.
    rmSync(home, { recursive: true, force: true });
  }
}

/** A name no other test run uses. */
export const unique = (what: string) => `${what} ${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

/** A silence as the Alertmanager API answers it. */
export type Gettable = {
  id: string;
  status: { state: string };
  matchers: { name: string; value: string; isRegex: boolean; isEqual: boolean }[];
  startsAt: string;
  endsAt: string;
  createdBy: string;
  comment: string;
};

/** Every silence of a /v1 path through every page, optionally in one state. */
export async function everySilence(ctx: APIRequestContext, path: string, state = ''): Promise<Silence[]> {
  const all: Silence[] = [];
  let cursor: string | null = null;
  do {
    const query = `limit=100${state ? `&state=${state}` : ''}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res = await ctx.get(`${path}?${query}`);
    expect(res.status(), await res.text()).toBe(200);
    const page = (await res.json()) as { items: Silence[]; nextCursor: string | null };
    all.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return all;
}

/** A new API key of the caller, for a day. */
export async function keyOf(ctx: APIRequestContext, demo: Demo, name: string, orgId = demo.acme): Promise<string> {
  return (await createKey(ctx, orgId, { name: unique(name), expiresInDays: 1 })).secret;
}

/** What "nothing changed" compares: which silences exist, at which version. */
export const versions = (silences: Silence[]) => silences.map((s) => `${s.id}@${s.version}`).sort();
