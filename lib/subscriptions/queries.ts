'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../api-client';
import { replaceInPages, usePagedList } from '../console/paged-list';
import { subscriptionKeys } from './keys';
import type { Subscription, SubscriptionUpdate } from './schema';

export { subscriptionKeys };

const basePath = (orgId: string, projectId: string) => `/v1/organizations/${orgId}/projects/${projectId}/subscriptions`;

export function useSubscriptions(orgId: string, projectId: string) {
  return usePagedList<Subscription>(subscriptionKeys.list(orgId, projectId), basePath(orgId, projectId));
}

/** PATCH one subscription; the answer (the whole changed resource) replaces it in the list without a refetch. */
export function useUpdateSubscription(orgId: string, projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, changes }: { id: string; changes: SubscriptionUpdate }) =>
      (await apiFetch<Subscription>(`${basePath(orgId, projectId)}/${id}`, { method: 'PATCH', body: changes })).data,
    onSuccess: (saved) => replaceInPages(client, subscriptionKeys.list(orgId, projectId), saved),
  });
}

/** Pause or resume; the answer replaces the subscription in the list, so its state badge follows. */
export function useSetSubscriptionState(orgId: string, projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, action }: { id: string; action: 'pause' | 'resume' }) =>
      (await apiFetch<Subscription>(`${basePath(orgId, projectId)}/${id}/${action}`, { method: 'POST' })).data,
    onSuccess: (saved) => replaceInPages(client, subscriptionKeys.list(orgId, projectId), saved),
  });
}
