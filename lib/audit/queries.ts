'use client';

import { useInfiniteQuery } from '@tanstack/react-query';
import { apiGet } from '../api-client';
import type { Page } from '../http/pagination';
import type { AuditEvent } from './types';

/** The console's filters: one action or noun (`api_key.*`), one actor, events since an instant. */
export type AuditFilter = { action?: string; actor?: string; since?: string };

/** Query keys of the audit log; never inline string keys. */
export const auditKeys = {
  all: ['audit'] as const,
  list: (orgId: string, filter: AuditFilter) => [...auditKeys.all, orgId, 'list', filter] as const,
};

/** The filter as the API's query string (shared by the list and the export links). */
export function auditQuery(filter: AuditFilter): URLSearchParams {
  const params = new URLSearchParams();
  if (filter.action) params.set('action', filter.action);
  if (filter.actor) params.set('actor', filter.actor);
  if (filter.since) params.set('since', filter.since);
  return params;
}

export function useAuditEvents(orgId: string, filter: AuditFilter, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: auditKeys.list(orgId, filter),
    initialPageParam: null as string | null,
    enabled,
    queryFn: ({ pageParam }) => {
      const params = auditQuery(filter);
      params.set('limit', '50');
      if (pageParam) params.set('cursor', pageParam);
      return apiGet<Page<AuditEvent>>(`/v1/organizations/${orgId}/audit-events?${params}`);
    },
    getNextPageParam: (last) => last.nextCursor,
  });
}
