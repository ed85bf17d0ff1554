import { AsyncLocalStorage } from 'node:async_hooks';

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'EAI_AGAIN',
  'SVC_DATABASE_DOWN', // DatabaseUnavailableError: matched by code, since each Next bundle has its own class
  // 53300 too_many_connections, 57P01-57P03 admin/crash shutdown and "cannot connect now".
  '53300',
  '57P01',
  '57P02',
  '57P03',
]);

const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|PGlite is closed|is not currently accepting connections/i;

/** Thrown without trying while the database is known to be down (see lib/db/breaker.ts). */
export class DatabaseUnavailableError extends Error {
  readonly code = 'SVC_DATABASE_DOWN';

  constructor(message = 'The database is known to be unavailable; not trying again yet.') {
    super(message);
    this.name = 'DatabaseUnavailableError';
  }
}

/** Whether an error means the database cannot be reached (503), as opposed to a bug (500). */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (
    let e = err as { code?: string; message?: string; cause?: unknown } | undefined, depth = 0;
    e && depth < 5;
    depth++
  ) {
    const code = typeof e.code === 'string' ? e.code : '';
    // SQLSTATE class 08 is "connection exception"; 55000 only when the database refuses connections
    // (ALLOW_CONNECTIONS false), matched by its message below, since 55000 also means other object states.
    if (UNAVAILABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
    if (UNAVAILABLE_MESSAGES.test(e.message ?? '')) return true;
    e = e.cause as typeof e;
  }
  return false;
}

/** Whether an error is PostgreSQL's `sqlState` (itself, or a cause drizzle wrapped it in). */
export function hasSqlState(err: unknown, sqlState: string): boolean {
  for (let e = err as { code?: string; cause?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (e.code === sqlState) return true;
    e = e.cause as typeof e;
  }
  return false;
}

/** Postgres unique violation, for "already exists" races. */
export const isUniqueViolation = (err: unknown): boolean => hasSqlState(err, '23505');

// Code that catches errors itself (next-auth swallows its callbacks' errors) notes unavailability here.
const failures = new AsyncLocalStorage<{ unavailable: boolean }>();

/** Runs `fn`, and tells whether anything inside noted the database as unavailable. */
export async function watchingDatabaseFailures<T>(fn: () => Promise<T>): Promise<{ result: T; unavailable: boolean }> {
  const store = { unavailable: false };
  const result = await failures.run(store, fn);
  return { result, unavailable: store.unavailable };
}

/** Rethrows `err` after noting, for `watchingDatabaseFailures`, whether it meant the database is unavailable. */
export function noteDatabaseFailure(err: unknown): never {
  const store = failures.getStore();
  if (store && isDatabaseUnavailable(err)) store.unavailable = true;
  throw err;
}
