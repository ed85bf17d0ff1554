// Shared by the console's hooks (lib/access/queries.ts) and the server's first render (server/console/prefetch.ts).

/** Query keys of the caller's permissions; never inline string keys. */
export const accessKeys = {
  all: ['access'] as const,
  permissions: (orgId: string) => [...accessKeys.all, orgId, 'permissions'] as const,
};
