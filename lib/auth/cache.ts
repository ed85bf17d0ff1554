import { LRUCache } from 'lru-cache';

/**
 * Caches on the authentication path. Every change that takes access away bumps the shared epoch in its
 * transaction and calls `invalidateAuthCaches()` after the commit; on PostgreSQL each request first reads
 * the epoch, so no instance answers from entries older than a change already confirmed. Entries also live
 * at most AUTH_CACHE_TTL_MS (default 1 s), which bounds changes that grant access.
 */
const TTL_MS = Math.max(0, Number(process.env.AUTH_CACHE_TTL_MS ?? 1000));

// One registry per process: Next bundles route handlers separately, and they must share invalidations.
type Registry = { caches: LRUCache<string, { value: unknown }>[]; generation: number };
const registry: Registry = ((globalThis as unknown as { __svcAuthCaches?: Registry }).__svcAuthCaches ??= {
  caches: [],
  generation: 0,
});

export type AuthCache<V> = {
  /** The cached value, or the loader's result (cached too, negatives included). */
  through: (key: string, load: () => Promise<V>) => Promise<V>;
};

export function authCache<V>(max = 50_000): AuthCache<V> {
  const cache = new LRUCache<string, { value: unknown }>({ max, ttl: TTL_MS || 1, ttlAutopurge: false });
  registry.caches.push(cache);
  const enabled = TTL_MS > 0;
  return {
    async through(key, load) {
      const hit = enabled ? cache.get(key) : undefined;
      if (hit) return hit.value as V;
      // Remember the generation: a load that raced an invalidation must not repopulate stale data.
      const generation = registry.generation;
      const value = await load();
      if (enabled && generation === registry.generation) cache.set(key, { value });
      return value;
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
