import { LRUCache } from 'lru-cache';
import { settings } from '../settings/settings';

/**
 * Caches on the authentication path. Every change that takes access away bumps the shared epoch in its
 * transaction and calls `invalidateAuthCaches()` after the commit; on PostgreSQL each request first reads
 * the epoch, so no instance answers from entries older than a change already confirmed. Entries also live
 * at most AUTH_CACHE_TTL_MS (default 1 s), which bounds changes that grant access.
 *
 * No request waits for a reload while others pile up behind it: concurrent misses of one key share one load,
 * and an entry past half its life is reloaded in the background by the request that finds it (which still
 * answers from it, within its life). Otherwise every busy key would expire at once each second and all requests in
 * flight load it again together, a stall every second (docs/benchmarks.md).
 */

// One registry per process: Next bundles route handlers separately, and they must share invalidations.
type Registry = { caches: { clear: () => void }[]; generation: number };
const registry: Registry = ((globalThis as unknown as { __svcAuthCaches?: Registry }).__svcAuthCaches ??= {
  caches: [],
  generation: 0,
});

export type AuthCache<V> = {
  /** The cached value, or the loader's result (cached too, negatives included). */
  through: (key: string, load: () => Promise<V>) => Promise<V>;
};

type Entry = { value: unknown; loadedAt: number };

export function authCache<V>(max = 50_000): AuthCache<V> {
  const TTL_MS = settings().AUTH_CACHE_TTL_MS;
  const REFRESH_AFTER_MS = TTL_MS / 2;
  const cache = new LRUCache<string, Entry>({ max, ttl: TTL_MS || 1, ttlAutopurge: false });
  /** Loads under way, each of the generation it started in: a later generation never joins an earlier load. */
  const loading = new Map<string, { generation: number; promise: Promise<V> }>();
  registry.caches.push({ clear: () => (cache.clear(), loading.clear()) });
  const enabled = TTL_MS > 0;

  function loadOnce(key: string, load: () => Promise<V>): Promise<V> {
    const generation = registry.generation;
    const running = loading.get(key);
    if (running && running.generation === generation) return running.promise;
    const promise = load().then((value) => {
      // A load that raced an invalidation must not repopulate stale data.
      if (generation === registry.generation) cache.set(key, { value, loadedAt: performance.now() });
      return value;
    });
    const entry = { generation, promise };
    loading.set(key, entry);
    const done = () => void (loading.get(key) === entry && loading.delete(key));
    promise.then(done, done);
    return promise;
  }

  return {
    async through(key, load) {
      if (!enabled) return load();
      const hit = cache.get(key);
      if (!hit) return loadOnce(key, load);
      // Reloaded before it expires, so a key in use never misses; a failed reload leaves it to expire.
      if (performance.now() - hit.loadedAt >= REFRESH_AFTER_MS) loadOnce(key, load).catch(() => {});
      return hit.value as V;
    },
  };
}

/**
 * Moves on every invalidation: a caller that looked up a principal before an epoch was applied compares it to
 * tell whether what it found may be stale (lib/pipeline/authenticate.ts).
 */
export function authCacheGeneration(): number {
  return registry.generation;
}

/**
 * Forget everything cached about principals, memberships, projects and policies in this instance. Other
 * instances drop theirs on their next request, when they read the bumped epoch (lib/auth/epoch.ts).
 */
export function invalidateAuthCaches(): void {
  registry.generation++;
  for (const cache of registry.caches) cache.clear();
}
