'use client';

/**
 * PLACEHOLDER for the overview's "Recent audit events" panel. The audit log API
 * (`GET /v1/organizations/{orgId}/audit-events`) is being built on another branch; until it is merged
 * this renders nothing. When it lands: read the newest few events with `usePagedList` (pageSize 5),
 * render them in an `AttentionCard` titled "Recent audit events" linking to the Audit log page,
 * and show nothing for callers without `auditLog.read`.
 */
export function RecentAuditEvents({ orgId }: { orgId: string }) {
  void orgId;
  return null;
}
