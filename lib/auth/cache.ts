import { LRUCache } from 'lru-cache';

/**
 * Caches on the authentication path. Entries live at most AUTH_CACHE_TTL_MS (default 1 s), so a change
 * made by another instance is seen within a second; `invalidateAuthCaches()` clears them all at once in
 * this instance, and every change that affects who may do what calls it after its transaction commits.
 */
const TTL_MS = Math.max(0, Number(process.env.AUTH_CACHE_TTL_MS ?? 1000));

// One registry per process: Next bundles route handlers separately, and they must share invalidations.
type Registry = { caches: LRUCache<string, { value: unknown }>[]; listeners: (() => void)[]; generation: number };
const registry: Registry = ((globalThis as unknown as { __svcAuthCaches?: Registry }).__svcAuthCaches ??= {
  caches: [],
  listeners: [],
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

/** Forget everything cached about principals, memberships, projects and policies in this instance only. */
export function clearAuthCaches(): void {
  registry.generation++;
  for (const cache of registry.caches) cache.clear();
}

/** Forget everything cached about access, here at once and (through the listeners) in every other instance. */
export function invalidateAuthCaches(): void {
  clearAuthCaches();
  for (const listener of registry.listeners) listener();
}

/** Called on every invalidation made in this instance (to tell the other instances). */
export function onAuthCacheInvalidation(listener: () => void): void {
  registry.listeners.push(listener);
}
