// Shared by the console's hooks (lib/api-keys/queries.ts, rotation-queries.ts) and the server's first render
// (server/console/prefetch.ts), which cannot import values from a 'use client' module.

/** Query keys of the API keys area; never inline string keys. */
export const apiKeyKeys = {
  all: ['api-keys'] as const,
  lists: (orgId: string) => [...apiKeyKeys.all, orgId, 'list'] as const,
  list: (orgId: string, owner: KeyOwner, expiringSoon = false, q?: string) =>
    [...apiKeyKeys.lists(orgId), owner, expiringSoon ? 'expiring-soon' : 'any', q ?? ''] as const,
};

/** Query keys of rotation, leaks and usage; never inline string keys. */
export const rotationKeys = {
  usage: (orgId: string, keyId: string) => [...apiKeyKeys.all, orgId, 'usage', keyId] as const,
  access: (orgId: string, keyId: string) => [...apiKeyKeys.all, orgId, 'access', keyId] as const,
  leaks: (orgId: string) => [...apiKeyKeys.all, orgId, 'leaks'] as const,
};

/**
 * Keys examined newest first before a search asks its indexes: a `q` that one key in five matches fills a page of
 * 50 here; a rarer one costs this walk plus its index lookups, so a longer walk misses bench:scale's goal for a
 * search with one match (docs/benchmarks.md, "Measured reasons in the code"). The console says how far a short
 * search looked by it.
 */
export const KEY_SEARCH_WALK = 250;

/** Whose keys a list shows: everyone's (for those who may list them) or the caller's own. */
export type KeyOwner = 'all' | 'me';

/** The key list's filters as the API takes them (`owner=me`, `expiring=soon`, `q`), from the console's choices. */
export function apiKeyFilters(owner: KeyOwner, expiringSoon = false, q?: string) {
  return { owner: owner === 'me' ? 'me' : undefined, expiring: expiringSoon ? 'soon' : undefined, q };
}
