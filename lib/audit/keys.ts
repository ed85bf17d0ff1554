// Shared by the console's hooks (lib/audit/queries.ts) and the server's first render (lib/console/server-prefetch.ts),
// which cannot import values from a 'use client' module.

/** The console's filters: one action or noun (`api_key.*`), one actor, events since an instant. */
export type AuditFilter = { action?: string; actor?: string; since?: string };

/** Query keys of the audit log; never inline string keys. */
export const auditKeys = {
  all: ['audit'] as const,
  list: (orgId: string, filter: AuditFilter) => [...auditKeys.all, orgId, 'list', filter] as const,
  verification: (orgId: string) => [...auditKeys.all, orgId, 'verification', 'latest'] as const,
};

/** How many of the newest events the organization's overview shows (its page reads that many on the server). */
export const RECENT_EVENTS = 5;
