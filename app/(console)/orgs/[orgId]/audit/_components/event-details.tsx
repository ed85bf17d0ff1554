import Link from 'next/link';
import { consolePlace, type ConsolePlace } from '@/components/console/console-place';
import type { AuditEvent } from '@/lib/db/audit-types';

const VIA: Record<string, string> = {
  session: 'console session',
  api_key: 'API key',
  oauth: 'CLI login (OAuth)',
  scim: 'SCIM',
};

/** The page a target lives on, while it still exists (`gone`: a later event ended it). */
export function targetPlace(orgId: string, event: AuditEvent, gone: boolean): ConsolePlace | null {
  return gone ? null : consolePlace(orgId, { ...event.target, projectId: event.projectId });
}

/** The target's name as a link to its page, named for where it goes; only its name where it has none. */
export function TargetName({
  event,
  place,
  className,
}: {
  event: AuditEvent;
  place: ConsolePlace | null;
  className: string;
}) {
  if (!place) return <>{event.target.name}</>;
  return (
    <Link href={place.href} className={className}>
      {event.target.name}
      <span className="sr-only"> (open {place.name})</span>
    </Link>
  );
}

function Value({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="text-slate-400">none</span>;
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return <pre className="whitespace-pre-wrap break-all font-mono text-xs text-slate-800">{text}</pre>;
}

/** Everything an event says, for its expanded row: before and after of each change, who, from where. */
export function EventDetails({ orgId, event, gone }: { orgId: string; event: AuditEvent; gone: boolean }) {
  const place = targetPlace(orgId, event, gone);
  const { actor, context } = event;
  return (
    <div className="space-y-4 text-sm">
      {event.changes.length > 0 && (
        <table className="w-full text-left">
          <caption className="pb-1 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
            Changes
          </caption>
          <thead className="text-xs text-slate-500">
            <tr>
              <th scope="col" className="py-1 pr-4">
                Field
              </th>
              <th scope="col" className="py-1 pr-4">
                Before
              </th>
              <th scope="col" className="py-1">
                After
              </th>
            </tr>
          </thead>
          <tbody>
            {event.changes.map((change) => (
              <tr key={change.field} className="align-top">
                <th scope="row" className="py-1 pr-4 font-mono text-xs font-medium text-slate-700">
                  {change.field}
                </th>
                <td className="py-1 pr-4">
                  <Value value={change.from} />
                </td>
                <td className="py-1">
                  <Value value={change.to} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <dl className="grid grid-cols-1 gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium text-slate-600">Who</dt>
        <dd className="text-slate-900">
          {actor.name} ({actor.type.replace('_', ' ')}
          {actor.via ? `, by ${VIA[actor.via] ?? actor.via}` : ''}
          {actor.credential ? ` ${actor.credential}` : ''})
        </dd>
        <dt className="font-medium text-slate-600">When</dt>
        <dd className="text-slate-900">
          <time dateTime={event.occurredAt}>{new Date(event.occurredAt).toUTCString()}</time>
        </dd>
        <dt className="font-medium text-slate-600">Why</dt>
        <dd className="text-slate-900">{event.reason ?? 'No reason recorded'}</dd>
        <dt className="font-medium text-slate-600">Target</dt>
        <dd className="text-slate-900">
          <TargetName
            event={event}
            place={place}
            className="font-medium text-indigo-700 underline hover:text-indigo-600"
          />
          {gone && <span className="text-slate-500"> (no longer exists)</span>}
        </dd>
        <dt className="font-medium text-slate-600">From</dt>
        <dd className="break-all text-slate-900">
          {context.ip ?? 'unknown address'}
          {context.userAgent ? `, ${context.userAgent}` : ''}
          {context.url ? `, found at ${context.url}` : ''}
        </dd>
        {context.requestId && (
          <>
            <dt className="font-medium text-slate-600">Request</dt>
            <dd className="font-mono text-xs text-slate-700">{context.requestId}</dd>
          </>
        )}
        <dt className="font-medium text-slate-600">Sequence</dt>
        <dd className="text-slate-700">#{event.seq}</dd>
      </dl>
    </div>
  );
}
