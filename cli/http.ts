import { mkdirSync } from 'node:fs';
import path from 'node:path';
import createClient, { type Client } from 'openapi-fetch';
import { lock } from 'proper-lockfile';
import type { paths } from '../lib/api-types';
import {
  configDir,
  forgetCredentials,
  loadServerConfig,
  orgsUrl,
  updateServerConfig,
  type Credentials,
  type Env,
} from './config';
import { CliError } from './errors';

export const CLIENT_ID = 'svc-cli';
const REQUEST_TIMEOUT_MS = 30_000;
/** Refresh a little before the access token expires, so a request never races its expiry. */
const REFRESH_MARGIN_MS = 60_000;

type ErrorEnvelope = { error?: { code?: string; message?: string; issues?: { path: string; message: string }[] } };

/** fetch, with an unreachable server turned into the message the user needs. */
export async function send(url: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS), redirect: 'manual' });
  } catch (err) {
    const cause = (err as { cause?: { message?: string; code?: string } }).cause;
    const reason =
      (err as Error).name === 'TimeoutError'
        ? `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`
        : (cause?.message ?? (err as Error).message);
    throw new CliError(`Could not reach ${new URL(url).origin}: ${reason}`);
  }
}

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The envelope's message (and its issues, one per line), or the status when the answer is not ours. */
function errorMessage(res: Response, body: unknown): string {
  const error = (body as ErrorEnvelope | undefined)?.error;
  if (!error?.message) return `The server answered ${res.status} ${res.statusText}`.trim() + '.';
  const issues = (error.issues ?? []).map((i) => `\n  ${i.path || '(body)'}: ${i.message}`).join('');
  return `${error.message}${issues}`;
}

export type OAuthTokenAnswer = {
  access_token?: string;
  refresh_token?: string;
  expires_in?: number;
  error?: string;
  error_description?: string;
};

/** A form-encoded OAuth request (RFC 6749 endpoints speak forms, not JSON). */
export async function postForm(
  server: string,
  path: string,
  fields: Record<string, string>,
): Promise<{ res: Response; body: OAuthTokenAnswer }> {
  const res = await send(`${server}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ client_id: CLIENT_ID, ...fields }).toString(),
  });
  return { res, body: ((await readJson(res)) ?? {}) as OAuthTokenAnswer };
}

export function credentialsFrom(body: OAuthTokenAnswer, now = Date.now()): Credentials {
  if (!body.access_token || !body.refresh_token) throw new CliError('The server answered without tokens.');
  return {
    accessToken: body.access_token,
    refreshToken: body.refresh_token,
    expiresAt: new Date(now + (body.expires_in ?? 3600) * 1000).toISOString(),
  };
}

type Auth = { kind: 'api_key'; key: string } | { kind: 'oauth'; credentials: Credentials };

/**
 * Calls the /v1 API as SVC_API_KEY when set, else as the saved device login, refreshing its access token
 * (rotating the refresh token) when it has expired or the server says it no longer checks out.
 */
export class ApiClient {
  readonly server: string;
  /** The /v1 API, typed by lib/api-types.ts (generated from the OpenAPI document): a schema change fails tsc here. */
  readonly v1: Client<paths>;
  private auth: Auth;

  constructor(private readonly env: Env = process.env) {
    this.server = orgsUrl(env);
    this.v1 = createClient<paths>({ baseUrl: this.server, fetch: (req) => this.authorized(req) });
    const key = env.SVC_API_KEY?.trim();
    if (key) {
      this.auth = { kind: 'api_key', key };
      return;
    }
    const { credentials } = loadServerConfig(this.server, env);
    if (!credentials) throw new CliError(`Not logged in to ${this.server}. Run \`svc login\`, or set SVC_API_KEY.`);
    this.auth = { kind: 'oauth', credentials };
  }

  private get bearer(): string {
    return this.auth.kind === 'api_key' ? this.auth.key : this.auth.credentials.accessToken;
  }

  /**
   * One refresh at a time across `svc` processes: refresh tokens rotate, and two processes spending the
   * same one would look like theft to the server, which then ends the login. Under the lock, a token
   * another process already rotated is adopted instead of refreshed again.
   */
  private async refresh(): Promise<void> {
    if (this.auth.kind !== 'oauth') return;
    const dir = configDir(this.env);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const release = await lock(dir, {
      lockfilePath: path.join(dir, 'refresh.lock'),
      realpath: false,
      stale: 15_000,
      retries: { retries: 100, minTimeout: 50, maxTimeout: 200 },
    });
    try {
      const saved = loadServerConfig(this.server, this.env).credentials;
      if (saved && saved.refreshToken !== this.auth.credentials.refreshToken) {
        this.auth = { kind: 'oauth', credentials: saved };
        return;
      }
      await this.refreshNow();
    } finally {
      await release();
    }
  }

  private async refreshNow(): Promise<void> {
    if (this.auth.kind !== 'oauth') return;
    const { res, body } = await postForm(this.server, '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: this.auth.credentials.refreshToken,
    });
    if (!res.ok) {
      if (body.error === 'invalid_grant') {
        forgetCredentials(this.server, this.env);
        throw new CliError(`Your login to ${this.server} has ended. Run \`svc login\` again.`);
      }
      throw new CliError(body.error_description ?? `Could not refresh the login: the server answered ${res.status}.`);
    }
    const credentials = credentialsFrom(body);
    this.auth = { kind: 'oauth', credentials };
    updateServerConfig(this.server, (current) => ({ ...current, credentials }), this.env);
  }

  /**
   * Every typed call's transport: the bearer of the moment, a refresh before an access token expires, and one
   * retry after a refresh when the server says the token no longer checks out.
   */
  private async authorized(req: Request): Promise<Response> {
    if (this.auth.kind === 'oauth' && Date.parse(this.auth.credentials.expiresAt) - REFRESH_MARGIN_MS <= Date.now())
      await this.refresh();
    const body = req.body ? await req.text() : undefined;
    const call = () => {
      const headers = new Headers(req.headers);
      headers.set('authorization', `Bearer ${this.bearer}`);
      headers.set('accept', 'application/json');
      return send(req.url, { method: req.method, headers, body });
    };
    const res = await call();
    if (res.status !== 401 || this.auth.kind !== 'oauth') return res;
    await this.refresh();
    return call();
  }

  /** Every item of a `{items, nextCursor}` list, page after page, 100 at a time. */
  async listAll<T>(page: (query: { limit: number; cursor?: string }) => Promise<Page<T>>): Promise<T[]> {
    const items: T[] = [];
    let cursor: string | undefined;
    do {
      const answer = await page({ limit: 100, cursor });
      items.push(...answer.items);
      cursor = answer.nextCursor ?? undefined;
    } while (cursor);
    return items;
  }
}

type Page<T> = { items: T[]; nextCursor: string | null };

/** The data of a typed call, or the error envelope's message (and issues) as the CLI's error. */
export async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw new CliError(errorMessage(response, error));
  return data as T;
}
