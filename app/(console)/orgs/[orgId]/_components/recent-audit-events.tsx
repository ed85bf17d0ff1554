'use client';

import { LocalDate } from '@/components/console/time';
import { hasGrant, usePermissions } from '@/lib/access/queries';
import { RECENT_EVENTS } from '@/lib/audit/keys';
import { useAuditEvents } from '@/lib/audit/queries';
import { AttentionCard } from './attention-card';

const NO_FILTER = {};

/** The overview's last few changes; the overview shows it only to those who may read the audit log. */
export function RecentAuditEvents({ orgId }: { orgId: string }) {
  const permissions = usePermissions(orgId);
  const allowed = hasGrant(permissions.data, 'auditLog.read') === true;
  const events = useAuditEvents(orgId, NO_FILTER, { enabled: allowed, pageSize: RECENT_EVENTS });
  // While loading the panel is as tall as five events, so their arrival moves nothing after it.
  const latest = events.items.slice(0, RECENT_EVENTS);
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
              <span className="text-slate-500">
                <LocalDate iso={event.occurredAt} />
              </span>{' '}
              <span>{event.target.name}</span>
            </li>
          ))}
        </ul>
      )}
    </AttentionCard>
  );
}
