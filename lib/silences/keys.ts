// Shared by the console's hooks (lib/silences/queries.ts) and the server's first render (server/console/prefetch.ts),
// which cannot import values from a 'use client' module.
import type { SilenceState } from './schema';

/**
 * Silences examined newest first before a search asks its index (a search text, the comment and the matchers
 * joined, is longer to test than a key's name; bench:scale, docs/big-organizations.md). The console says how far a
 * short search looked by it.
 */
export const SILENCE_SEARCH_WALK = 200;

/** Query keys of the silences area; never inline string keys. */
export const silenceKeys = {
  all: ['silences'] as const,
  project: (orgId: string, projectId: string) => [...silenceKeys.all, orgId, projectId] as const,
  list: (orgId: string, projectId: string, state: SilenceState, q?: string) =>
    [...silenceKeys.project(orgId, projectId), 'list', state, q ?? ''] as const,
  counts: (orgId: string, projectId: string) => [...silenceKeys.project(orgId, projectId), 'counts'] as const,
  one: (orgId: string, projectId: string, silenceId: string) =>
    [...silenceKeys.all, orgId, projectId, silenceId] as const,
};
