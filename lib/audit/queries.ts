'use client';

import { usePagedList } from '../console/paged-list';
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

/** The log, newest first, paged like every other list of the console. */
export function useAuditEvents(
  orgId: string,
  filter: AuditFilter,
  options: { enabled?: boolean; pageSize?: number } = {},
) {
  return usePagedList<AuditEvent>(
    auditKeys.list(orgId, filter),
    `/v1/organizations/${orgId}/audit-events`,
    { action: filter.action, actor: filter.actor, since: filter.since },
    options,
  );
}
