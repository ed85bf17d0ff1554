'use client';

import { Fragment, useEffect, useMemo, useRef, useState } from 'react';
import { ListStates } from '@/components/console/list-states';
import { RelativeTime } from '@/components/console/time';
import { Button } from '@/components/ui/button';
import { DataTable } from '@/components/ui/data-table';
import { Select } from '@/components/ui/select';
import { EmptyState, PageHeader } from '@/components/ui/states';
import { hasGrant, usePermissions } from '@/lib/access/queries';
import { AUDIT_ACTIONS, actionNoun } from '@/lib/audit-actions';
import { auditQuery, useAuditEvents, type AuditFilter } from '@/lib/audit/queries';
import type { AuditEvent } from '@/lib/db/audit-types';
import { EventDetails, TargetName, targetPlace } from './event-details';
import { VerifyWholeLog } from './verify-whole-log';

const ANY = 'any';
const NOUNS = [...new Set(AUDIT_ACTIONS.map(actionNoun))];
const ACTION_OPTIONS = [
  { value: ANY, label: 'Any action' },
  ...NOUNS.map((noun) => ({ value: `${noun}.*`, label: `${noun}.*` })),
  ...AUDIT_ACTIONS.map((action) => ({ value: action, label: action })),
];
const RANGES = [
  { value: ANY, label: 'All time', ms: null },
  { value: '1h', label: 'Last hour', ms: 3_600_000 },
  { value: '24h', label: 'Last 24 hours', ms: 86_400_000 },
  { value: '7d', label: 'Last 7 days', ms: 7 * 86_400_000 },
  { value: '30d', label: 'Last 30 days', ms: 30 * 86_400_000 },
];
/** Events after which their target no longer exists (the console then shows no link). */
const ENDINGS = new Set([
  'api_key.revoked',
  'bot.deleted',
  'member.removed',
  'member.left',
  'queue.deleted',
  'subscription.deleted',
  'webhook.deleted',
]);

export function AuditLogView({ orgId }: { orgId: string }) {
  const permissions = usePermissions(orgId);
  const allowed = hasGrant(permissions.data, 'auditLog.read');
  const [action, setAction] = useState(ANY);
  const [actor, setActor] = useState(ANY);
  const [range, setRange] = useState(ANY);
  const [open, setOpen] = useState<string | null>(null);
  // Fixed when the range is chosen, so the query key (and the loaded pages) stay stable while scrolling.
  const [since, setSince] = useState<string | undefined>(undefined);
  const filter: AuditFilter = {
    action: action === ANY ? undefined : action,
    actor: actor === ANY ? undefined : actor,
    since,
  };
  const events = useAuditEvents(orgId, filter, { enabled: allowed === true });
  const items = events.items;

  // The actor filter offers the actors of the loaded events by name (and keeps the chosen one).
  const actorOptions = useMemo(() => {
    const names = new Map(items.filter((e) => e.actor.id).map((e) => [e.actor.id!, e.actor.name]));
    return [{ value: ANY, label: 'Anyone' }, ...[...names].map(([value, label]) => ({ value, label }))];
  }, [items]);
  const ended = useMemo(() => new Set(items.filter((e) => ENDINGS.has(e.action)).map((e) => e.target.id)), [items]);

  // Infinite scroll: the next page loads when the end of the list comes into view.
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = events;
  useEffect(() => {
    const node = sentinel.current;
    if (!node || !hasNextPage) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const exportHref = (format: 'csv' | 'ndjson') => {
    const params = auditQuery(filter);
    params.set('format', format);
    return `/v1/organizations/${orgId}/audit-events/export?${params}`;
  };

  if (allowed === false)
    return (
      <>
        <PageHeader title="Audit log" />
        <EmptyState title="You cannot read the audit log">It needs the auditLog.read permission.</EmptyState>
      </>
    );

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every change to access and configuration in this organization: who, when, from where, and why."
        actions={
          <>
            <a
              href={exportHref('csv')}
              download
              className="inline-flex items-center rounded-md bg-white px-3.5 py-2 text-sm font-semibold text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
            >
              Export CSV
            </a>
            <a
              href={exportHref('ndjson')}
              download
              className="inline-flex items-center rounded-md bg-white px-3.5 py-2 text-sm font-semibold text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
            >
              Export NDJSON
            </a>
          </>
        }
      />
      {/* From the first paint on, while the permission loads too: arriving later it pushed the filters and the log
          down (Lighthouse counted 0.146 of layout shift). */}
      <VerifyWholeLog orgId={orgId} allowed={allowed === true} />
      <div className="mb-4 grid grid-cols-1 gap-4 sm:grid-cols-3">
        <Select label="Action" value={action} options={ACTION_OPTIONS} onValueChange={setAction} />
        <Select label="Actor" value={actor} options={actorOptions} onValueChange={setActor} />
        <Select
          label="Time range"
          value={range}
          options={RANGES.map(({ value, label }) => ({ value, label }))}
          onValueChange={(value) => {
            setRange(value);
            const ms = RANGES.find((r) => r.value === value)?.ms;
            setSince(ms ? new Date(Date.now() - ms).toISOString() : undefined);
          }}
        />
      </div>
      <ListStates
        list={events}
        loading="Loading the audit log"
        columns={4}
        pending={events.isPending || allowed === undefined}
        errorTitle="Could not load the audit log"
        empty={<EmptyState title="No events">Nothing matches these filters.</EmptyState>}
      >
        <DataTable
          caption="Audit events, newest first"
          columns={['When', 'Action', 'Who', 'Target']}
          stacked
          footer={
            hasNextPage && (
              <div ref={sentinel} className="border-t border-slate-100 p-3 text-center">
                <Button variant="secondary" size="sm" pending={isFetchingNextPage} onClick={() => void fetchNextPage()}>
                  Load more
                </Button>
              </div>
            )
          }
        >
          {items.map((event) => (
            <EventRow
              key={event.id}
              orgId={orgId}
              event={event}
              gone={ended.has(event.target.id)}
              open={open === event.id}
              onToggle={() => setOpen(open === event.id ? null : event.id)}
            />
          ))}
        </DataTable>
      </ListStates>
    </>
  );
}

function EventRow(props: { orgId: string; event: AuditEvent; gone: boolean; open: boolean; onToggle: () => void }) {
  const { event, open } = props;
  const detailsId = `audit-event-${event.id}`;
  return (
    <Fragment>
      <tr className={open ? 'bg-slate-50' : undefined}>
        <td data-label="When" className="whitespace-nowrap px-4 py-3 text-slate-700">
          <RelativeTime iso={event.occurredAt} />
        </td>
        <th scope="row" data-label="Action" className="px-4 py-3 text-left font-medium">
          <button
            type="button"
            aria-expanded={open}
            aria-controls={detailsId}
            onClick={props.onToggle}
            className="font-mono text-indigo-700 hover:text-indigo-600"
          >
            {event.action}
          </button>
        </th>
        <td data-label="Who" className="px-4 py-3 text-slate-700">
          {event.actor.name}
          {event.actor.credential && <span className="ml-1 font-mono text-xs">{event.actor.credential}</span>}
        </td>
        <td data-label="Target" className="max-w-xs truncate px-4 py-3 text-slate-700">
          <TargetName
            event={event}
            place={targetPlace(props.orgId, event, props.gone)}
            // Padded to a 24 px target; the row keeps its height.
            className="-my-0.5 block truncate py-0.5 font-medium text-indigo-700 hover:underline"
          />
        </td>
      </tr>
      {open && (
        <tr id={detailsId}>
          <td colSpan={4} className="bg-slate-50 px-4 pb-4">
            <EventDetails orgId={props.orgId} event={event} gone={props.gone} />
          </td>
        </tr>
      )}
    </Fragment>
  );
}
