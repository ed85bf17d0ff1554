// Shared by the console's hooks (lib/audit/queries.ts) and the server's first render (server/console/prefetch.ts),
// which cannot import values from a 'use client' module.
import { PAGE_SIZE } from '../console/page-size';

/** The console's filters: one action or noun (`api_key.*`), one actor, events since an instant. */
export type AuditFilter = { action?: string; actor?: string; since?: string };

/**
 * Query keys of the audit log; never inline string keys. A list's key holds its page size: the overview's five
 * newest events are not the audit log's first page.
 */
export const auditKeys = {
  all: ['audit'] as const,
  list: (orgId: string, filter: AuditFilter, pageSize = PAGE_SIZE) =>
    [...auditKeys.all, orgId, 'list', filter, pageSize] as const,
  verification: (orgId: string) => [...auditKeys.all, orgId, 'verification', 'latest'] as const,
};

/** How many of the newest events the organization's overview shows (its page reads that many on the server). */
export const RECENT_EVENTS = 5;
