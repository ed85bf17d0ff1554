'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../api-client';
import { usePagedList } from '../console/paged-list';
import { apiKeyFilters, apiKeyKeys, KEY_SEARCH_WALK, type KeyOwner } from './keys';
import type { ApiKey, CreateApiKeyInput, CreatedApiKey } from './schema';

export { apiKeyKeys };

export function useApiKeys(orgId: string, owner: KeyOwner, expiringSoon = false, q?: string) {
  return usePagedList<ApiKey>(
    apiKeyKeys.list(orgId, owner, expiringSoon, q),
    `/v1/organizations/${orgId}/api-keys`,
    apiKeyFilters(owner, expiringSoon, q),
    { search: { walk: KEY_SEARCH_WALK, noun: 'keys' } },
  );
}

/**
 * Creates a key with a plain request, not a mutation: react-query would keep the response (and so the secret)
 * in its mutation cache. The caller holds the secret in component state and this refreshes the list.
 */
export function useCreateApiKey(orgId: string) {
  const client = useQueryClient();
  return async (input: CreateApiKeyInput): Promise<CreatedApiKey> => {
    const { data } = await apiFetch<CreatedApiKey>(`/v1/organizations/${orgId}/api-keys`, {
      method: 'POST',
      body: input,
    });
    void client.invalidateQueries({ queryKey: apiKeyKeys.lists(orgId) });
    return data;
  };
}

export function useRevokeApiKey(orgId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) => apiFetch<void>(`/v1/organizations/${orgId}/api-keys/${keyId}`, { method: 'DELETE' }),
    onSettled: () => client.invalidateQueries({ queryKey: apiKeyKeys.lists(orgId) }),
  });
}
