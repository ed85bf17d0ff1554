'use client';

import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../api-client';
import type { Permission } from '../auth/policies';
import { accessKeys } from './keys';
import type { EffectivePermissions } from './schema';

export { accessKeys };

export function usePermissions(orgId: string) {
  return useQuery({
    queryKey: accessKeys.permissions(orgId),
    queryFn: () => apiGet<EffectivePermissions>(`/v1/organizations/${orgId}/permissions`),
  });
}

/** Whether the caller has a permission at organization scope, or in the given project. Undefined while loading. */
export function hasGrant(
  data: EffectivePermissions | undefined,
  permission: Permission,
  projectId?: string,
): boolean | undefined {
  if (!data) return undefined;
  if (!projectId) return data.organization.includes(permission);
  return data.projects.find((p) => p.projectId === projectId)?.permissions.includes(permission) ?? false;
}
