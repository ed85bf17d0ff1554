'use client';

import Link from 'next/link';
import { LocalTime, RelativeTime } from '@/components/console/time';
import { Button } from '@/components/ui/button';
import { ActionsCell, DataTable } from '@/components/ui/data-table';
import { Badge } from '@/components/ui/states';
import { useSilenceRef } from '@/lib/alerts/queries';
import type { Alert } from '@/lib/alerts/schema';

export function LabelChip({ name, value }: { name: string; value: string }) {
  return (
    <span className="inline-flex max-w-full items-center rounded-md bg-slate-100 px-2 py-0.5 font-mono text-xs text-slate-800 ring-1 ring-inset ring-slate-300">
      <span className="[overflow-wrap:anywhere]">
        {name}=<span className="font-semibold">&quot;{value}&quot;</span>
      </span>
    </span>
  );
}

/** A link to a silence that mutes the alert, named by its slug once loaded (a fixed width keeps the row still). */
function SilenceLink({ orgId, projectId, silenceId }: { orgId: string; projectId: string; silenceId: string }) {
  const silence = useSilenceRef(orgId, projectId, silenceId);
  const name = silence.data?.slug ?? 'a silence';
  return (
    <Link
      href={`/orgs/${orgId}/projects/${projectId}/silences?open=${silenceId}`}
      data-alert-focus=""
      className="inline-block min-w-[8rem] font-mono text-xs text-indigo-700 underline underline-offset-2 hover:text-indigo-900"
      aria-label={silence.data ? `Silenced by ${silence.data.slug}: ${silence.data.comment}` : 'Silenced by a silence'}
    >
      {name}
    </Link>
  );
}

function AlertState({ alert, orgId, projectId }: { alert: Alert; orgId: string; projectId: string }) {
  if (alert.state === 'firing') return <Badge tone="red">Firing</Badge>;
  if (alert.state === 'resolved') return <Badge tone="slate">Resolved</Badge>;
  return (
    <div className="space-y-1">
      <Badge tone="indigo">Silenced</Badge>
      <ul aria-label="Silenced by" className="space-y-0.5">
        {alert.silencedBy.map((id) => (
          <li key={id}>
            <SilenceLink orgId={orgId} projectId={projectId} silenceId={id} />
          </li>
        ))}
      </ul>
    </div>
  );
}

/** One alertname's alerts: a table of labels, state, start and summary, with "Silence…" on each not yet silenced. */
export function AlertGroup({
  name,
  alerts,
  orgId,
  projectId,
  heading,
  onSilence,
}: {
  name: string;
  alerts: Alert[];
  orgId: string;
  projectId: string;
  /** The section it sits in, for the table's name: "Firing", "Silenced". */
  heading: string;
  /** Null when the caller may not create silences. */
  onSilence: ((alert: Alert) => void) | null;
}) {
  return (
    <section aria-labelledby={`group-${heading}-${name}`} className="space-y-2">
      <h3
        id={`group-${heading}-${name}`}
        className="font-mono text-sm font-semibold text-slate-900 [overflow-wrap:anywhere]"
      >
        {name} <span className="font-sans text-xs font-normal text-slate-500">({alerts.length})</span>
      </h3>
      <DataTable
        caption={`${heading}: ${name}`}
        columns={['Labels', 'State', 'Started', 'Summary', null]}
        minWidth="48rem"
        stacked
      >
        {alerts.map((a) => (
          <tr key={a.fingerprint} data-alert={a.fingerprint}>
            <td data-label="Labels" className="px-4 py-3">
              <ul className="flex max-w-[22rem] flex-wrap gap-1 max-sm:max-w-none" aria-label="Labels">
                {Object.entries(a.labels)
                  .filter(([label]) => label !== 'alertname')
                  .map(([label, value]) => (
                    <li key={label}>
                      <LabelChip name={label} value={value} />
                    </li>
                  ))}
              </ul>
            </td>
            <td data-label="State" className="px-4 py-3">
              <AlertState alert={a} orgId={orgId} projectId={projectId} />
            </td>
            <td data-label="Started" className="whitespace-nowrap px-4 py-3 text-slate-700">
              <LocalTime iso={a.startsAt} />
              <p className="text-xs text-slate-500">
                <RelativeTime iso={a.startsAt} />
              </p>
            </td>
            <td data-label="Summary" className="max-w-[16rem] px-4 py-3 text-slate-900 max-sm:max-w-none">
              <p className="line-clamp-3">{a.annotations.summary ?? a.annotations.description ?? '—'}</p>
            </td>
            <ActionsCell>
              {onSilence && a.state !== 'silenced' && (
                <Button
                  variant="secondary"
                  size="sm"
                  data-alert-focus=""
                  onClick={() => onSilence(a)}
                  aria-label={`Silence ${name} alert ${a.fingerprint}`}
                >
                  Silence…
                </Button>
              )}
            </ActionsCell>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}
