'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet } from '../api-client';
import { hasGrant } from './grants';
import { accessKeys } from './keys';
import type { EffectivePermissions } from './schema';

export { accessKeys, hasGrant };

export function usePermissions(orgId: string) {
  return useQuery({
    queryKey: accessKeys.permissions(orgId),
    queryFn: () => apiGet<EffectivePermissions>(`/v1/organizations/${orgId}/permissions`),
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
