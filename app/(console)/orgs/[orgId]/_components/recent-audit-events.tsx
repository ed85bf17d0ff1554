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
  // Until the permissions are known the panel holds its place (loading), so the panels after it do not move
  // when it appears; it goes only for someone who may not read the log.
  if (!allowed && !permissions.isPending) return null;
  const latest = events.items.slice(0, 5);
  return (
    <AttentionCard title="Recent audit events" href={`/orgs/${orgId}/audit`}>
      {!allowed || events.isPending ? (
        <p className="min-h-[7.25rem] text-slate-500">Loading…</p>
      ) : events.isError ? (
        <p className="text-slate-500">The audit log could not be loaded.</p>
      ) : latest.length === 0 ? (
        <p className="text-slate-500">Nothing has changed yet.</p>
      ) : (
        // One line per event (cut short on a phone; the audit log has the rest), so the panel is as tall as the
        // placeholder above and the panels after it stay where they are.
        <ul className="space-y-1">
          {latest.map((event) => (
            <li key={event.id} className="truncate">
              <span className="font-medium text-slate-900">{event.actor.name}</span> <span>{event.action}</span>{' '}
              <span className="text-slate-500">{shortDate(event.occurredAt)}</span> <span>{event.target.name}</span>
            </li>
          ))}
        </ul>
      )}
    </AttentionCard>
  );
}
