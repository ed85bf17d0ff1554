'use client';

import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiFetch, apiGet } from '../api-client';
import type { Page } from '../http/pagination';
import type { Subscription, SubscriptionUpdate } from './schema';

/** Query keys of the subscriptions area; never inline string keys. */
export const subscriptionKeys = {
  all: ['subscriptions'] as const,
  list: (orgId: string, projectId: string) => [...subscriptionKeys.all, orgId, projectId, 'list'] as const,
};

const basePath = (orgId: string, projectId: string) => `/v1/organizations/${orgId}/projects/${projectId}/subscriptions`;

/** Every subscription of the project, following cursors (a project has a handful, not thousands). */
async function fetchAll(orgId: string, projectId: string): Promise<Subscription[]> {
  const items: Subscription[] = [];
  let cursor: string | null = null;
  do {
    const page: Page<Subscription> = await apiGet<Page<Subscription>>(
      `${basePath(orgId, projectId)}?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

export function useSubscriptions(orgId: string, projectId: string) {
  return useQuery({ queryKey: subscriptionKeys.list(orgId, projectId), queryFn: () => fetchAll(orgId, projectId) });
}

/** A changed subscription (the whole resource the API answered) replaces its row in the cached list. */
function replaceInList(client: QueryClient, orgId: string, projectId: string, saved: Subscription): void {
  client.setQueryData<Subscription[]>(subscriptionKeys.list(orgId, projectId), (items) =>
    items?.map((item) => (item.id === saved.id ? saved : item)),
  );
}

/** PATCH one subscription; the answer (the whole changed resource) replaces it in the list without a refetch. */
export function useUpdateSubscription(orgId: string, projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, changes }: { id: string; changes: SubscriptionUpdate }) =>
      (await apiFetch<Subscription>(`${basePath(orgId, projectId)}/${id}`, { method: 'PATCH', body: changes })).data,
    onSuccess: (saved) => replaceInList(client, orgId, projectId, saved),
  });
}

/** Pause or resume; the answer replaces the subscription in the list, so its state badge follows. */
export function useSetSubscriptionState(orgId: string, projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, action }: { id: string; action: 'pause' | 'resume' }) =>
      (await apiFetch<Subscription>(`${basePath(orgId, projectId)}/${id}/${action}`, { method: 'POST' })).data,
    onSuccess: (saved) => replaceInList(client, orgId, projectId, saved),
  });
}
