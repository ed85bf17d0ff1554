'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../api-client';
import { apiKeyKeys } from '../api-keys/queries';
import { usePagedList } from '../console/paged-list';
import { PICKER } from '../orgs/keys';
import { botKeys } from './keys';
import type { Bot, BotPoliciesBody, CreateBotBody } from './schema';

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

/** `POST …/bots` (sudo): a bot with its roles; its keys are made on the API keys page. */
export function useCreateBot(orgId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateBotBody) =>
      (await apiFetch<Bot>(`/v1/organizations/${orgId}/bots`, { method: 'POST', body })).data,
    onSettled: () => client.invalidateQueries({ queryKey: botKeys.list(orgId) }),
  });
}

/** `PUT …/bots/{botId}/policies` (sudo): replaces the bot's bindings; its keys feel it on their next request. */
export function useSetBotPolicies(orgId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ botId, policies }: BotPoliciesBody & { botId: string }) =>
      (await apiFetch<Bot>(`/v1/organizations/${orgId}/bots/${botId}/policies`, { method: 'PUT', body: { policies } }))
        .data,
    onSettled: () => client.invalidateQueries({ queryKey: botKeys.list(orgId) }),
  });
}
