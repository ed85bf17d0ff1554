'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch, apiGet } from '../api-client';
import { usePagedList } from '../console/paged-list';
import { queueKeys, queuesPath } from './keys';
import type { CreateQueueBody, PublishBody, Queue } from './schema';

export { queueKeys };

export function useQueues(orgId: string, projectId: string) {
  return usePagedList<Queue>(queueKeys.list(orgId, projectId), queuesPath(orgId, projectId));
}

/** One queue; `queueId` may be unknown yet (a subscription's, before it loads): nothing is read until it is. */
export function useQueue(orgId: string, projectId: string, queueId: string | undefined) {
  return useQuery({
    queryKey: queueKeys.one(orgId, projectId, queueId ?? ''),
    queryFn: () => apiGet<Queue>(`${queuesPath(orgId, projectId)}/${queueId}`),
    enabled: !!queueId,
  });
}

export function useCreateQueue(orgId: string, projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateQueueBody) =>
      (await apiFetch<Queue>(queuesPath(orgId, projectId), { method: 'POST', body })).data,
    onSuccess: (queue) => {
      client.setQueryData(queueKeys.one(orgId, projectId, queue.id), queue);
      void client.invalidateQueries({ queryKey: queueKeys.list(orgId, projectId) });
    },
  });
}

export function useDeleteQueue(orgId: string, projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (queueId: string) => apiFetch<void>(`${queuesPath(orgId, projectId)}/${queueId}`, { method: 'DELETE' }),
    // The deleted queue's own query stays until its page is left (read again, it would say "not found").
    onSuccess: () => void client.invalidateQueries({ queryKey: queueKeys.list(orgId, projectId) }),
  });
}

/** Publishes under one Idempotency-Key per submission, so a retried submission stores its messages once. */
export function usePublishMessages(orgId: string, projectId: string, queueId: string) {
  return useMutation({
    mutationFn: async ({ body, idempotencyKey }: { body: PublishBody; idempotencyKey: string }) =>
      (
        await apiFetch<{ messageIds: string[] }>(`${queuesPath(orgId, projectId)}/${queueId}/messages`, {
          method: 'POST',
          body,
          headers: { 'Idempotency-Key': idempotencyKey },
        })
      ).data,
  });
}
