'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch, apiGet } from '../api-client';
import { apiKeyKeys, rotationKeys } from './keys';
import type { ApiKeyAccess, ApiKeyLeak, ApiKeyUsage, RollApiKeyInput, RolledApiKey } from './schema';

/** Rolls with a plain request, as creation does: the new secret must never enter a react-query cache. */
export function useRollApiKey(orgId: string) {
  const client = useQueryClient();
  return async (keyId: string, input: RollApiKeyInput): Promise<RolledApiKey> => {
    const { data } = await apiFetch<RolledApiKey>(`/v1/organizations/${orgId}/api-keys/${keyId}/roll`, {
      method: 'POST',
      body: input,
    });
    void client.invalidateQueries({ queryKey: apiKeyKeys.lists(orgId) });
    return data;
  };
}

export function useApiKeyUsage(orgId: string, keyId: string, enabled: boolean) {
  return useQuery({
    queryKey: rotationKeys.usage(orgId, keyId),
    queryFn: () => apiGet<ApiKeyUsage>(`/v1/organizations/${orgId}/api-keys/${keyId}/usage`),
    enabled,
  });
}

/** What a key would use of its owner's permissions now; always asked afresh, since the owner's may change. */
export function useApiKeyAccess(orgId: string, keyId: string, enabled: boolean) {
  return useQuery({
    queryKey: rotationKeys.access(orgId, keyId),
    queryFn: () => apiGet<ApiKeyAccess>(`/v1/organizations/${orgId}/api-keys/${keyId}/access`),
    enabled,
    staleTime: 0,
  });
}

export function useLeakNotices(orgId: string) {
  return useQuery({
    queryKey: rotationKeys.leaks(orgId),
    queryFn: () => apiGet<{ items: ApiKeyLeak[] }>(`/v1/organizations/${orgId}/api-key-leaks`),
  });
}

export function useDismissLeakNotice(orgId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) =>
      apiFetch<void>(`/v1/organizations/${orgId}/api-key-leaks/${keyId}`, { method: 'DELETE' }),
    onSettled: () => client.invalidateQueries({ queryKey: rotationKeys.leaks(orgId) }),
  });
}
