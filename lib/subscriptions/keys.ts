// Shared by the console's hooks (lib/subscriptions/queries.ts) and the server's first render (server/console/prefetch.ts),
// which cannot import values from a 'use client' module.

/** Query keys of the subscriptions area; never inline string keys. */
export const subscriptionKeys = {
  all: ['subscriptions'] as const,
  list: (orgId: string, projectId: string) => [...subscriptionKeys.all, orgId, projectId, 'list'] as const,
};
