'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../api-client';
import { apiKeyKeys } from '../api-keys/queries';
import { orgKeys } from '../orgs/queries';

export function useDeleteBot(orgId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (botId: string) => apiFetch<void>(`/v1/organizations/${orgId}/bots/${botId}`, { method: 'DELETE' }),
    onSettled: async () => {
      await client.invalidateQueries({ queryKey: orgKeys.bots(orgId) });
      await client.invalidateQueries({ queryKey: apiKeyKeys.lists(orgId) });
    },
  });
}
