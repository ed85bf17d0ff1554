'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet } from '../api-client';
import { LIVE_REFRESH_MS } from '../console/page-size';
import { hasGrant } from './grants';
import { accessKeys } from './keys';
import type { EffectivePermissions } from './schema';

export { accessKeys, hasGrant };

/**
 * What the caller may do in the organization, read again as often as the live lists are: a role given or taken
 * while the console is open shows in its buttons within that time, without a reload or a return to the tab.
 */
export function usePermissions(orgId: string) {
  return useQuery({
    queryKey: accessKeys.permissions(orgId),
    queryFn: () => apiGet<EffectivePermissions>(`/v1/organizations/${orgId}/permissions`),
    refetchInterval: LIVE_REFRESH_MS,
  });
}

/**
 * Reads the caller's permissions again: after a change that adds to them without a change of roles (a new project,
 * which an organization-wide role reaches at once), so the console offers what is now allowed without a reload.
 */
export function useRefreshPermissions(orgId: string) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: accessKeys.permissions(orgId) });
}
