'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch, apiGet } from '../api-client';
import { apiKeyKeys } from '../api-keys/queries';
import type { Page } from '../http/pagination';
import { orgKeys } from '../orgs/queries';
import type { Bot } from './schema';

/** Query keys of the bots area, under their organization's; never inline string keys. */
export const botKeys = {
  list: (orgId: string) => [...orgKeys.all, orgId, 'bots'] as const,
};

export function useBots(orgId: string) {
  return useQuery({
    queryKey: botKeys.list(orgId),
    queryFn: () => apiGet<Page<Bot>>(`/v1/organizations/${orgId}/bots?limit=100`),
  });
}

export function useDeleteBot(orgId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (botId: string) => apiFetch<void>(`/v1/organizations/${orgId}/bots/${botId}`, { method: 'DELETE' }),
    onSettled: async () => {
      await client.invalidateQueries({ queryKey: botKeys.list(orgId) });
      await client.invalidateQueries({ queryKey: apiKeyKeys.lists(orgId) });
    },
  });
}
