import { Redis } from 'ioredis';
import { settings } from '../settings/settings';

// One connection per process and URL, like the database handle: Next bundles this module more than once.
const state = globalThis as unknown as { __svcRedisCounters?: Map<string, Redis> };

/**
 * The Redis (or Valkey) connection that holds the rate-limit counters (RATE_LIMIT_REDIS_URL). Commands are never
 * queued while it is down: the limiter answers from its memory insurance at once (`rejectIfRedisNotReady`)
 * while ioredis reconnects in the background, so a Redis outage costs exactness, never a hung request.
 */
export function redisCounters(url: string): Redis {
  const clients = (state.__svcRedisCounters ??= new Map());
  let client = clients.get(url);
  if (!client) {
    client = new Redis(url, {
      connectionName: 'svc-counters',
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: settings().DATABASE_CONNECT_TIMEOUT_MS,
      commandTimeout: settings().DATABASE_CONNECT_TIMEOUT_MS,
    });
    let down = false;
    client.on('error', (err: Error) => {
      // One line per outage, not one per reconnection attempt.
      if (!down) console.error('Rate-limit counters: Redis unreachable; counting in memory until it is back.', err);
      down = true;
    });
    client.on('ready', () => {
      if (down) console.error('Rate-limit counters: Redis is back.');
      down = false;
    });
    clients.set(url, client);
  }
  return client;
}

/**
 * The connection once it is ready, or after the connect timeout if it is not: a limiter created before the first
 * connection would otherwise count its first requests in memory alone.
 */
export async function readyRedisCounters(url: string): Promise<Redis> {
  const client = redisCounters(url);
  if (client.status !== 'ready')
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, settings().DATABASE_CONNECT_TIMEOUT_MS);
      function done() {
        clearTimeout(timer);
        client.off('ready', done).off('error', done);
        resolve();
      }
      client.once('ready', done).once('error', done);
    });
  return client;
}

/** Closes the counters' connections (tests, shut-down). */
export async function closeRedisCounters(): Promise<void> {
  const clients = state.__svcRedisCounters;
  state.__svcRedisCounters = undefined;
  await Promise.all([...(clients?.values() ?? [])].map((c) => c.quit().catch(() => c.disconnect())));
}
