'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch, apiGet, ApiRequestError } from '../api-client';
import { usePagedList } from '../console/paged-list';
import type { AuditVerification } from './schema';
import type { AuditEvent } from '../db/audit-types';
import { auditKeys, type AuditFilter } from './keys';

export { auditKeys, type AuditFilter };

/** The filter as the API's query string (shared by the list and the export links). */
export function auditQuery(filter: AuditFilter): URLSearchParams {
  const params = new URLSearchParams();
  if (filter.action) params.set('action', filter.action);
  if (filter.actor) params.set('actor', filter.actor);
  if (filter.since) params.set('since', filter.since);
  return params;
}

/** The log, newest first, paged like every other list of the console. */
export function useAuditEvents(
  orgId: string,
  filter: AuditFilter,
  options: { enabled?: boolean; pageSize?: number } = {},
) {
  return usePagedList<AuditEvent>(
    auditKeys.list(orgId, filter, options.pageSize),
    `/v1/organizations/${orgId}/audit-events`,
    { action: filter.action, actor: filter.actor, since: filter.since },
    options,
  );
}

/** How often the console asks how far a running re-verification is. */
const VERIFICATION_POLL_MS = 1_000;

/**
 * The organization's newest re-verification job (null when there was none), polled while it runs: the job
 * runs in the instance that took the request and stores its progress, so any instance answers.
 */
export function useLatestAuditVerification(orgId: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: auditKeys.verification(orgId),
    enabled: options.enabled,
    queryFn: async () => {
      try {
        return await apiGet<AuditVerification>(`/v1/organizations/${orgId}/audit-events/verifications/latest`);
      } catch (err) {
        if (err instanceof ApiRequestError && err.status === 404) return null;
        throw err;
      }
    },
    refetchInterval: (query) => (query.state.data?.state === 'running' ? VERIFICATION_POLL_MS : false),
  });
}

/** Starts a full re-verification (or joins the one running) and shows it as the latest. */
export function useStartAuditVerification(orgId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      (
        await apiFetch<AuditVerification>(`/v1/organizations/${orgId}/audit-events/verifications`, {
          method: 'POST',
        })
      ).data,
    onSuccess: (job) => client.setQueryData(auditKeys.verification(orgId), job),
  });
}
