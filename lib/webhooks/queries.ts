'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch, apiGet } from '../api-client';
import { replaceInPages, usePagedList } from '../console/paged-list';
import { orgKeys } from '../orgs/queries';
import type { CreateWebhookBody, UpdateWebhookBody, Webhook, WebhookAttempt } from './schema';

/** Query keys of the webhooks area, under their organization's; never inline string keys. */
export const webhookKeys = {
  all: (orgId: string) => [...orgKeys.all, orgId, 'webhooks'] as const,
  list: (orgId: string) => [...webhookKeys.all(orgId), 'list'] as const,
  one: (orgId: string, webhookId: string) => [...webhookKeys.all(orgId), 'one', webhookId] as const,
  attempts: (orgId: string, webhookId: string) => [...webhookKeys.all(orgId), 'attempts', webhookId] as const,
};

const hooks = (orgId: string) => `/v1/organizations/${orgId}/webhooks`;

export function useWebhooks(orgId: string, enabled = true) {
  return usePagedList<Webhook>(webhookKeys.list(orgId), hooks(orgId), {}, { enabled });
}

export function useWebhook(orgId: string, webhookId: string) {
  return useQuery({
    queryKey: webhookKeys.one(orgId, webhookId),
    queryFn: () => apiGet<Webhook>(`${hooks(orgId)}/${webhookId}`),
  });
}

/** The delivery log, newest first; it refreshes while the page is open, so retries show up as they happen. */
export function useWebhookAttempts(orgId: string, webhookId: string) {
  return usePagedList<WebhookAttempt>(
    webhookKeys.attempts(orgId, webhookId),
    `${hooks(orgId)}/${webhookId}/deliveries`,
    {},
    { refetchInterval: 5_000 },
  );
}

/**
 * Plain requests, not react-query mutations: the signing secret in their answers never enters a query or
 * mutation cache (as with API keys); the lists are invalidated instead.
 */
export function useCreateWebhook(orgId: string) {
  const client = useQueryClient();
  return async (input: CreateWebhookBody) => {
    const { data } = await apiFetch<{ webhook: Webhook; secret: string }>(hooks(orgId), {
      method: 'POST',
      body: input,
    });
    void client.invalidateQueries({ queryKey: webhookKeys.list(orgId) });
    return data;
  };
}

export function useRotateWebhookSecret(orgId: string) {
  return async (webhookId: string) =>
    (await apiFetch<{ secret: string }>(`${hooks(orgId)}/${webhookId}/rotate-secret`, { method: 'POST' })).data;
}

export function useUpdateWebhook(orgId: string, webhookId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: UpdateWebhookBody) =>
      (await apiFetch<Webhook>(`${hooks(orgId)}/${webhookId}`, { method: 'PATCH', body: input })).data,
    onSuccess: (saved) => {
      client.setQueryData(webhookKeys.one(orgId, webhookId), saved);
      replaceInPages(client, webhookKeys.list(orgId), saved);
    },
  });
}

export function useDeleteWebhook(orgId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (webhookId: string) => apiFetch<void>(`${hooks(orgId)}/${webhookId}`, { method: 'DELETE' }),
    onSettled: () => client.invalidateQueries({ queryKey: webhookKeys.list(orgId) }),
  });
}

export function useSendTestEvent(orgId: string, webhookId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<void>(`${hooks(orgId)}/${webhookId}/test`, { method: 'POST' }),
    // The worker sends it within a poll or two; look again shortly so the attempt appears without waiting.
    onSuccess: () =>
      setTimeout(() => void client.invalidateQueries({ queryKey: webhookKeys.attempts(orgId, webhookId) }), 1_000),
  });
}

export function useRedeliver(orgId: string, webhookId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (attemptId: string) =>
      apiFetch<void>(`${hooks(orgId)}/${webhookId}/deliveries/${attemptId}/redeliver`, { method: 'POST' }),
    onSuccess: () =>
      setTimeout(() => void client.invalidateQueries({ queryKey: webhookKeys.attempts(orgId, webhookId) }), 1_000),
  });
}
