'use client';

import { useQuery } from '@tanstack/react-query';
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
