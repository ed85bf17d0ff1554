// Shared by the console's hooks (lib/members/queries.ts) and the server's first render (server/console/prefetch.ts),
// which cannot import values from a 'use client' module.
import { orgKeys } from '../orgs/keys';

/** Query keys of the members area, under their organization's; never inline string keys. */
export const memberKeys = {
  list: (orgId: string) => [...orgKeys.all, orgId, 'members'] as const,
};
