'use client';

import { shortDate } from '@/components/console/time';
import { hasGrant, usePermissions } from '@/lib/access/queries';
import { useAuditEvents } from '@/lib/audit/queries';
import { AttentionCard } from './attention-card';

const NO_FILTER = {};

/** The overview's last few changes, for those who may read the audit log; nothing for anyone else. */
export function RecentAuditEvents({ orgId }: { orgId: string }) {
  const permissions = usePermissions(orgId);
  const allowed = hasGrant(permissions.data, 'auditLog.read') === true;
  const events = useAuditEvents(orgId, NO_FILTER, { enabled: allowed, pageSize: 5 });
  if (!allowed) return null;
  const latest = events.items.slice(0, 5);
  return (
    <AttentionCard title="Recent audit events" href={`/orgs/${orgId}/audit`}>
      {events.isPending ? (
        <p className="text-slate-500">Loading…</p>
      ) : events.isError ? (
        <p className="text-slate-500">The audit log could not be loaded.</p>
      ) : latest.length === 0 ? (
        <p className="text-slate-500">Nothing has changed yet.</p>
      ) : (
        <ul className="space-y-1">
          {latest.map((event) => (
            <li key={event.id} className="flex flex-wrap gap-x-2">
              <span className="font-medium text-slate-900">{event.actor.name}</span>
              <span>{event.action}</span>
              <span className="truncate">{event.target.name}</span>
              <span className="text-slate-500">{shortDate(event.occurredAt)}</span>
            </li>
          ))}
        </ul>
      )}
    </AttentionCard>
  );
}
