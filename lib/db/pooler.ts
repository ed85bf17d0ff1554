import type pg from 'pg';
import { settings, type Settings } from '../settings/settings';

/**
 * Where the PostgreSQL connections go. `url` (DATABASE_URL) serves requests and may name a transaction pooler
 * (PgBouncer, pool_mode=transaction), which hands each transaction whichever server session is free;
 * `directUrl` (DATABASE_DIRECT_URL, default DATABASE_URL) reaches PostgreSQL itself, for what needs one session
 * throughout: migrations and their lock, backups and restores.
 */
type Urls = Pick<Settings, 'DATABASE_URL' | 'DATABASE_DIRECT_URL' | 'DATABASE_POOLER'>;

export type PostgresUrls = { url: string; directUrl: string; transactionPooler: boolean };

/**
 * DATABASE_POOLER: `transaction` when DATABASE_URL names a transaction pooler, `none` when it reaches PostgreSQL.
 * Unset, it is `transaction` as soon as DATABASE_DIRECT_URL names another address: a separate direct URL is only
 * needed behind a pooler, and assuming one costs little (statements are parsed on each call) where the opposite
 * mistake answers 500s.
 */
export function postgresUrls(urls: Partial<Urls> = settings()): PostgresUrls | null {
  const url = urls.DATABASE_URL;
  if (!url) return null;
  const directUrl = urls.DATABASE_DIRECT_URL || url;
  const mode = urls.DATABASE_POOLER ?? (directUrl === url ? 'none' : 'transaction');
  return { url, directUrl, transactionPooler: mode === 'transaction' };
}

/** The URL of one server session of its own (backups, restores): DATABASE_DIRECT_URL, else DATABASE_URL. */
export function directDatabaseUrl(urls: Partial<Urls> = settings()): string | undefined {
  return urls.DATABASE_DIRECT_URL || urls.DATABASE_URL;
}

/**
 * Statements whose effect outlives their transaction on the server session: the next transaction through a
 * transaction pooler may run on another session (or this session may serve another instance). `set local`,
 * `set transaction`, `set constraints` and the `_xact_` advisory locks end with the transaction and are fine.
 */
const SESSION_STATE =
  /^\s*(?:set\s+(?!local\b|transaction\b|constraints\b)|reset\b|listen\b|unlisten\b|prepare\b|load\b|discard\b)|\bpg_(?:try_)?advisory_(?:un)?lock(?:_shared)?\s*\(|\bset_config\s*\([^()]*,\s*false\s*\)/i;

export class SessionStateError extends Error {}

/** Throws if `text` would leave state on the server session (see SESSION_STATE). */
export function assertSessionFree(text: string): void {
  if (SESSION_STATE.test(text))
    throw new SessionStateError(
      `Refused on a transaction-pooled connection (DATABASE_POOLER=transaction), since it keeps session state: ` +
        `${text.trim().slice(0, 80)}. Use SET LOCAL, a transaction-scoped lock, or the direct URL.`,
    );
}

type QueryArgs = [config: unknown, ...rest: unknown[]];

/**
 * node-postgres's Client for the pools behind a transaction pooler: every statement goes unnamed (a named one is
 * parsed on one server session and missing, or "already exists", on the next), and a statement that keeps session
 * state is refused before it is sent. Names come from `.prepare(name)`, `runStatement` and rate-limiter-flexible;
 * on a direct connection they stay, and each session parses and plans its statements once.
 */
export function sessionFreeClient(Client: typeof pg.Client): typeof pg.Client {
  const query = Client.prototype.query as (...args: QueryArgs) => unknown;
  class SessionFreeClient extends Client {}
  SessionFreeClient.prototype.query = function (this: pg.Client, ...[config, ...rest]: QueryArgs) {
    const text = typeof config === 'string' ? config : (config as { text?: unknown } | null)?.text;
    if (typeof text === 'string') assertSessionFree(text);
    const unnamed =
      config && typeof config === 'object' && 'name' in config && !('submit' in config)
        ? { ...config, name: undefined }
        : config;
    return query.call(this, unnamed, ...rest);
  } as typeof Client.prototype.query;
  return SessionFreeClient;
}
