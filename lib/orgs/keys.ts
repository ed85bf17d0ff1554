// Shared by the console's hooks (lib/orgs/queries.ts) and the server's first render (server/console/prefetch.ts),
// which cannot import values from a 'use client' module.

/** Query keys of the organizations area; never inline string keys. */
export const orgKeys = {
  all: ['organizations'] as const,
  list: () => [...orgKeys.all, 'list'] as const,
  projects: (orgId: string) => [...orgKeys.all, orgId, 'projects'] as const,
};

/** Pickers (organization, project, a key's bot owner) read the largest page the API gives. */
export const PICKER = { pageSize: 100 };
