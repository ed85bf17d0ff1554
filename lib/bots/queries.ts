'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../api-client';
import { apiKeyKeys } from '../api-keys/queries';
import { usePagedList } from '../console/paged-list';
import { PICKER } from '../orgs/keys';
import { botKeys } from './keys';
import type { Bot } from './schema';

export { botKeys };

export function useBots(orgId: string) {
  return usePagedList<Bot>(botKeys.list(orgId), `/v1/organizations/${orgId}/bots`, {}, PICKER);
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
