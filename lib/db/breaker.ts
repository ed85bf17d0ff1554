import type { Pool, PoolClient } from 'pg';
import { DatabaseUnavailableError, isDatabaseUnavailable } from './errors';
import { settings } from '../settings/settings';

// One per process, like the database handle: every bundle must see the same state.
const state = ((globalThis as unknown as { __svcDbBreaker?: { openUntil: number } }).__svcDbBreaker ??= {
  openUntil: 0,
});

/** Refuses at once while the database is known to be down, so requests answer 503 instead of each waiting. */
export function assertDatabaseMayBeUp(now = Date.now()): void {
  if (now < state.openUntil) throw new DatabaseUnavailableError();
}

/** After a failure that means "unavailable" (connecting, or a query timing out), stop trying for DATABASE_BREAKER_MS; the next try after it decides. */
export function noteDatabaseFailed(err: unknown, now = Date.now()): void {
  const openMs = settings().DATABASE_BREAKER_MS;
  if (openMs > 0 && isDatabaseUnavailable(err)) state.openUntil = now + openMs;
}

type ConnectCallback = (
  err: Error | undefined,
  client: PoolClient | undefined,
  done: (release?: unknown) => void,
) => void;
type Connect = (callback?: ConnectCallback) => Promise<PoolClient> | undefined;

/**
 * Puts the breaker in front of every new connection of the pool: `pool.query` (which connects with a
 * callback), `pool.connect()` and the rate-limit store all pass through `connect`.
 */
export function guardPool(pool: Pool): void {
  const connect = (pool.connect as Connect).bind(pool);
  const guarded: Connect = (callback) => {
    try {
      assertDatabaseMayBeUp();
    } catch (err) {
      if (!callback) return Promise.reject(err);
      process.nextTick(() => callback(err as Error, undefined, () => {}));
      return undefined;
    }
    if (callback) {
      return connect((err, client, done) => {
        if (err) noteDatabaseFailed(err);
        callback(err, client, done);
      });
    }
    return connect()!.catch((err: unknown) => {
      noteDatabaseFailed(err);
      throw err;
    });
  };
  (pool as unknown as { connect: Connect }).connect = guarded;
  // A client released with an error (a query that timed out on a silent connection) counts as well.
  pool.on('release', (err: Error | undefined) => {
    if (err) noteDatabaseFailed(err);
  });
}
