import { randomUUID } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { clearAuthCaches, onAuthCacheInvalidation } from './cache';

const CHANNEL = 'svc_auth_invalidate';
const instanceId = randomUUID();

/**
 * Several instances on one PostgreSQL: an invalidation here is sent with NOTIFY and every other instance
 * clears its caches on receipt, usually within milliseconds. The caches' 1 s TTL bounds it if a
 * notification is ever lost (a dropped LISTEN connection is re-opened).
 */
export async function syncAuthCachesThrough(pool: Pool): Promise<void> {
  let listener: PoolClient | undefined;
  const listen = async () => {
    try {
      listener = await pool.connect();
      listener.on('notification', (message) => {
        if (message.channel === CHANNEL && message.payload !== instanceId) clearAuthCaches();
      });
      listener.on('error', () => {
        listener?.release(true);
        listener = undefined;
        setTimeout(() => void listen(), 1000).unref();
      });
      await listener.query(`listen ${CHANNEL}`);
      // Anything missed while not listening is stale now.
      clearAuthCaches();
    } catch (err) {
      console.error('Could not listen for cache invalidations; retrying.', err);
      listener?.release(true);
      listener = undefined;
      setTimeout(() => void listen(), 1000).unref();
    }
  };
  await listen();
  onAuthCacheInvalidation(() => {
    pool.query('select pg_notify($1, $2)', [CHANNEL, instanceId]).catch((err: unknown) => {
      console.error('Could not notify other instances of a cache invalidation', err);
    });
  });
}
