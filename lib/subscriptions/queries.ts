'use client';

import { useEffect } from 'react';
import { useMutation, useQueries, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiFetch, apiGet } from '../api-client';
import { replaceInPages, usePagedList } from '../console/paged-list';
import {
  ACTIVITY_REFRESH_MS,
  DEAD_LETTERS_PAGE_SIZE,
  DELIVERIES_PAGE_SIZE,
  EVERY_PAGE_SIZE,
  subscriptionKeys,
  subscriptionsPath,
} from './keys';
import type { z } from 'zod';
import type { createSubscriptionBody, CreatedSubscription, Subscription, SubscriptionUpdate } from './schema';
import type { DeadLetter, SubscriptionActivity, SubscriptionDelivery } from './activity-schema';
import type { SubscriptionHealth } from './health-schema';

export { subscriptionKeys };

const basePath = subscriptionsPath;

/** Each project's failing subscriptions and dead letters, those the caller may see (one read for the overview). */
export function useSubscriptionHealth(orgId: string) {
  return useQuery({
    queryKey: subscriptionKeys.health(orgId),
    queryFn: () => apiGet<SubscriptionHealth>(`/v1/organizations/${orgId}/subscription-health`),
    refetchOnWindowFocus: 'always',
  });
}

export function useSubscriptions(orgId: string, projectId: string) {
  return usePagedList<Subscription>(subscriptionKeys.list(orgId, projectId), basePath(orgId, projectId));
}

/**
 * Every subscription of the project, for the queue pages, which group them by queue (the API lists a project's, not
 * a queue's). A queue holds at most 10, so the first page of 100 is nearly always all; further pages follow by
 * themselves.
 */
export function useProjectSubscriptions(orgId: string, projectId: string, { live = false }: { live?: boolean } = {}) {
  const list = usePagedList<Subscription>(
    subscriptionKeys.every(orgId, projectId),
    basePath(orgId, projectId),
    {},
    // `live`: health and last success follow deliveries while the page is visible, as the backlogs do.
    { pageSize: EVERY_PAGE_SIZE, refetchInterval: live ? ACTIVITY_REFRESH_MS : undefined },
  );
  const { hasNextPage, isFetchingNextPage, isError, fetchNextPage } = list;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && !isError) void fetchNextPage({ cancelRefetch: false });
  }, [hasNextPage, isFetchingNextPage, isError, fetchNextPage]);
  return list;
}

/** One subscription, read again every few seconds while its page is visible: its health follows deliveries. */
export function useSubscription(orgId: string, projectId: string, id: string) {
  return useQuery({
    queryKey: subscriptionKeys.one(orgId, projectId, id),
    queryFn: () => apiGet<Subscription>(`${basePath(orgId, projectId)}/${id}`),
    refetchInterval: ACTIVITY_REFRESH_MS,
    refetchIntervalInBackground: false,
  });
}

const activityQuery = (orgId: string, projectId: string, id: string) => ({
  queryKey: subscriptionKeys.activity(orgId, projectId, id),
  queryFn: () => apiGet<SubscriptionActivity>(`${basePath(orgId, projectId)}/${id}/activity`),
  // Only while the page is visible (react-query pauses intervals in a hidden tab).
  refetchInterval: ACTIVITY_REFRESH_MS,
  refetchIntervalInBackground: false,
});

/** The backlog now and the last hour per minute. */
export function useSubscriptionActivity(orgId: string, projectId: string, id: string) {
  return useQuery(activityQuery(orgId, projectId, id));
}

/** The backlogs of several subscriptions (a queue's), each under the key its own page reads. */
export function useSubscriptionActivities(orgId: string, projectId: string, ids: readonly string[]) {
  return useQueries({ queries: ids.map((id) => activityQuery(orgId, projectId, id)) });
}

/** The last 24 hours of deliveries, newest first, refreshed while visible. */
export function useSubscriptionDeliveries(orgId: string, projectId: string, id: string) {
  return usePagedList<SubscriptionDelivery>(
    subscriptionKeys.deliveries(orgId, projectId, id),
    `${basePath(orgId, projectId)}/${id}/deliveries`,
    {},
    { pageSize: DELIVERIES_PAGE_SIZE, refetchInterval: ACTIVITY_REFRESH_MS },
  );
}

/** The subscription's dead letters, oldest first, refreshed while visible (a failing target adds to them). */
export function useDeadLetters(orgId: string, projectId: string, id: string) {
  return usePagedList<DeadLetter>(
    subscriptionKeys.deadLetters(orgId, projectId, id),
    `${basePath(orgId, projectId)}/${id}/dead-letters`,
    {},
    { pageSize: DEAD_LETTERS_PAGE_SIZE, refetchInterval: ACTIVITY_REFRESH_MS },
  );
}

/** A changed subscription, wherever the console holds it: the project's lists and its own page. */
function putSubscription(client: QueryClient, orgId: string, projectId: string, saved: Subscription) {
  replaceInPages(client, subscriptionKeys.list(orgId, projectId), saved);
  replaceInPages(client, subscriptionKeys.every(orgId, projectId), saved);
  client.setQueryData(subscriptionKeys.one(orgId, projectId, saved.id), saved);
}

/** Lists that gained or lost a subscription are read again. */
function refreshLists(client: QueryClient, orgId: string, projectId: string) {
  void client.invalidateQueries({ queryKey: subscriptionKeys.list(orgId, projectId) });
  void client.invalidateQueries({ queryKey: subscriptionKeys.every(orgId, projectId) });
}

/** PATCH one subscription; the answer (the whole changed resource) replaces it without a refetch. */
export function useUpdateSubscription(orgId: string, projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, changes }: { id: string; changes: SubscriptionUpdate }) =>
      (await apiFetch<Subscription>(`${basePath(orgId, projectId)}/${id}`, { method: 'PATCH', body: changes })).data,
    onSuccess: (saved) => putSubscription(client, orgId, projectId, saved),
  });
}

/** Pause or resume; the answer replaces the subscription wherever it is shown, so its state badge follows. */
export function useSetSubscriptionState(orgId: string, projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, action }: { id: string; action: 'pause' | 'resume' }) =>
      (await apiFetch<Subscription>(`${basePath(orgId, projectId)}/${id}/${action}`, { method: 'POST' })).data,
    onSuccess: (saved) => putSubscription(client, orgId, projectId, saved),
  });
}

/**
 * Plain requests, not react-query mutations: the signing secret in their answers never enters a query or mutation
 * cache (as with API keys and webhooks); the lists are read again instead.
 */
export function useCreateSubscription(orgId: string, projectId: string) {
  const client = useQueryClient();
  return async (body: z.input<typeof createSubscriptionBody>) => {
    const { data } = await apiFetch<CreatedSubscription>(basePath(orgId, projectId), { method: 'POST', body });
    refreshLists(client, orgId, projectId);
    return data;
  };
}

export function useRotateSubscriptionSecret(orgId: string, projectId: string) {
  return async (id: string) =>
    (
      await apiFetch<{ signingSecret: string }>(`${basePath(orgId, projectId)}/${id}/rotate-secret`, {
        method: 'POST',
      })
    ).data;
}

export function useDeleteSubscription(orgId: string, projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<void>(`${basePath(orgId, projectId)}/${id}`, { method: 'DELETE' }),
    // Its own query stays until its page is left (read again, it would say "not found").
    onSuccess: () => refreshLists(client, orgId, projectId),
  });
}

/** Dead letters and the backlog change together: both are read again after a redrive or a discard. */
function refreshDeadLetters(client: QueryClient, orgId: string, projectId: string, id: string) {
  void client.invalidateQueries({ queryKey: subscriptionKeys.deadLetters(orgId, projectId, id) });
  void client.invalidateQueries({ queryKey: subscriptionKeys.activity(orgId, projectId, id) });
}

/** Redrives the given dead letters, or every one when `messageIds` is absent. */
export function useRedriveDeadLetters(orgId: string, projectId: string, id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (messageIds?: string[]) =>
      (
        await apiFetch<{ redriven: number }>(`${basePath(orgId, projectId)}/${id}/dead-letters/redrive`, {
          method: 'POST',
          body: messageIds ? { messageIds } : {},
        })
      ).data,
    onSettled: () => refreshDeadLetters(client, orgId, projectId, id),
  });
}

export function useDiscardDeadLetter(orgId: string, projectId: string, id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (messageId: string) =>
      apiFetch<void>(`${basePath(orgId, projectId)}/${id}/dead-letters/${messageId}`, { method: 'DELETE' }),
    onSettled: () => refreshDeadLetters(client, orgId, projectId, id),
  });
}
