'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../api-client';
import { apiKeyKeys } from '../api-keys/queries';
import { usePagedList } from '../console/paged-list';
import { useWrite } from '../console/write';
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
  return useWrite<CreateBotBody, Bot>(
    (body) => [`/v1/organizations/${orgId}/bots`, { method: 'POST', body }],
    botKeys.list(orgId),
  );
}

/** `PUT …/bots/{botId}/policies` (sudo): replaces the bot's bindings; its keys feel it on their next request. */
export function useSetBotPolicies(orgId: string) {
  return useWrite<BotPoliciesBody & { botId: string }, Bot>(
    ({ botId, policies }) => [
      `/v1/organizations/${orgId}/bots/${botId}/policies`,
      { method: 'PUT', body: { policies } },
    ],
    botKeys.list(orgId),
  );
}
