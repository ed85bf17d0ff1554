'use client';

import { Tabs } from 'radix-ui';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Badge, EmptyState, ErrorState, TableSkeleton } from '@/components/ui/states';
import { useConsoleUser } from '@/components/console/user-context';
import { useMembers } from '@/lib/orgs/queries';
import { SILENCE_STATES, type Silence, type SilenceState } from '@/lib/silences/schema';
import { useCanCreateSilences, useSilences } from '@/lib/silences/queries';
import { SilenceDialog, type SilenceDialogTarget } from './edit-silence-dialog';
import { localTime, timeLeft } from './format';
import { DataTable } from '@/components/ui/data-table';

const STATE_LABEL: Record<SilenceState, string> = { active: 'Active', scheduled: 'Scheduled', expired: 'Expired' };
const TAB_ORDER: SilenceState[] = ['active', 'scheduled', 'expired'];

export function MatcherChip({ matcher }: { matcher: Silence['matchers'][number] }) {
  return (
    <span className="inline-flex max-w-full items-center gap-1 rounded-md bg-slate-100 px-2 py-0.5 font-mono text-xs text-slate-800 ring-1 ring-inset ring-slate-300">
      <span className="truncate">{matcher.label}</span>
      <span className="font-semibold text-indigo-700">{matcher.op}</span>
      <span className="truncate">&quot;{matcher.value}&quot;</span>
    </span>
  );
}

/** Re-renders every minute so "ends in 3 hours" stays true while the page is open. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function useCreatorName(orgId: string) {
  const user = useConsoleUser();
  // Only admins may list members; everyone else sees the creator's kind and id.
  const members = useMembers(orgId);
  return (ref: Silence['createdBy']) => {
    if (ref.type === 'user' && ref.id === user.id) return 'You';
    const member = members.data?.items.find((m) => m.userId === ref.id);
    return member ? member.name : `${ref.type === 'bot' ? 'Bot' : 'User'} ${ref.id.slice(0, 8)}`;
  };
}

function SilenceRows({
  silences,
  onOpen,
  onRecreate,
  creatorName,
  now,
}: {
  silences: Silence[];
  onOpen: (id: string) => void;
  /** Offered on expired silences when the caller may create. */
  onRecreate: ((from: Silence) => void) | null;
  creatorName: (ref: Silence['createdBy']) => string;
  now: number;
}) {
  return (
    <DataTable caption="Silences" columns={['Matchers', 'Start – end', 'Comment', 'Created by', null]}>
      {silences.map((s) => (
        <tr key={s.id} data-silence-id={s.id}>
          <td className="px-4 py-3">
            <ul className="flex max-w-[16rem] flex-wrap gap-1" aria-label="Matchers">
              {s.matchers.map((m, i) => (
                <li key={i}>
                  <MatcherChip matcher={m} />
                </li>
              ))}
            </ul>
          </td>
          <td className="whitespace-nowrap px-4 py-3 text-slate-700">
            <time dateTime={s.startsAt} title={s.startsAt}>
              {localTime(s.startsAt)}
            </time>
            <span aria-hidden="true"> –</span>
            <br />
            <time dateTime={s.endsAt} title={s.endsAt}>
              {localTime(s.endsAt)}
            </time>
            <p className="text-xs text-slate-500">{timeLeft(s, now)}</p>
          </td>
          <td className="max-w-[14rem] px-4 py-3 text-slate-900">
            <p className="line-clamp-2">{s.comment}</p>
          </td>
          <td className="whitespace-nowrap px-4 py-3 text-slate-700">{creatorName(s.createdBy)}</td>
          <td className="space-x-2 whitespace-nowrap px-4 py-3 text-right">
            {s.state === 'expired' && onRecreate && (
              <Button
                variant="secondary"
                size="sm"
                onClick={() => onRecreate(s)}
                aria-label={`Recreate silence: ${s.comment}`}
              >
                Recreate
              </Button>
            )}
            <Button
              variant="secondary"
              size="sm"
              onClick={() => onOpen(s.id)}
              aria-label={`${s.state === 'expired' ? 'View' : 'Edit'} silence: ${s.comment}`}
            >
              {s.state === 'expired' ? 'View' : 'Edit'}
            </Button>
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

export function SilencesView({ orgId, projectId }: { orgId: string; projectId: string }) {
  const silences = useSilences(orgId, projectId);
  const [opened, setOpened] = useState<SilenceDialogTarget | null>(null);
  const [announced, setAnnounced] = useState<string | null>(null);
  const [tab, setTab] = useState<SilenceState>('active');
  const canCreate = useCanCreateSilences(orgId, projectId) === true;
  const recreate = (from: Silence) => setOpened({ kind: 'new', from });
  const creatorName = useCreatorName(orgId);
  const now = useNow();

  if (silences.isPending) return <TableSkeleton rows={3} columns={6} label="Loading silences" />;
  if (silences.isError) {
    const notOffered = 'status' in silences.error && silences.error.status === 404;
    return notOffered ? (
      <EmptyState title="Alerting is off for this project">
        Silences exist only in projects with alerting switched on.
      </EmptyState>
    ) : (
      <ErrorState message={silences.error.message} onRetry={() => void silences.refetch()} />
    );
  }
  const byState = Object.fromEntries(
    SILENCE_STATES.map((state) => [state, silences.data.items.filter((s) => s.state === state)]),
  ) as Record<SilenceState, Silence[]>;

  return (
    <>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <p role="status" aria-live="polite" className={announced ? 'text-sm text-green-800' : 'sr-only'}>
          {announced}
        </p>
        {canCreate && (
          <Button className="ml-auto" onClick={() => setOpened({ kind: 'new' })}>
            New silence
          </Button>
        )}
      </div>
      <Tabs.Root value={tab} onValueChange={(v) => setTab(v as SilenceState)}>
        <Tabs.List aria-label="Silences by state" className="mb-4 flex gap-1 border-b border-slate-200">
          {TAB_ORDER.map((state) => (
            <Tabs.Trigger
              key={state}
              value={state}
              className="-mb-px inline-flex items-center gap-2 border-b-2 border-transparent px-3 py-2 text-sm font-medium text-slate-600 hover:text-slate-900 data-[state=active]:border-indigo-600 data-[state=active]:text-indigo-700"
            >
              {STATE_LABEL[state]}
              <Badge tone={state === 'active' ? 'green' : state === 'scheduled' ? 'indigo' : 'slate'}>
                {byState[state].length}
              </Badge>
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {TAB_ORDER.map((state) => (
          <Tabs.Content key={state} value={state} className="focus:outline-none">
            {byState[state].length === 0 ? (
              <EmptyState title={`No ${state} silences`} />
            ) : (
              <SilenceRows
                silences={byState[state]}
                onOpen={(silenceId) => setOpened({ kind: 'edit', silenceId })}
                onRecreate={canCreate ? recreate : null}
                creatorName={creatorName}
                now={now}
              />
            )}
          </Tabs.Content>
        ))}
      </Tabs.Root>
      {opened && (
        <SilenceDialog
          // A recreate replaces the open silence with a new form, so the form starts afresh.
          key={opened.kind === 'edit' ? opened.silenceId : `new-${opened.from?.comment ?? ''}`}
          orgId={orgId}
          projectId={projectId}
          target={opened}
          onClose={() => setOpened(null)}
          onRecreate={recreate}
          onSaved={(silence, verb) => {
            setOpened(null);
            setTab(silence.state);
            setAnnounced(`${verb} silence ${silence.slug}: it is ${silence.state}.`);
          }}
        />
      )}
    </>
  );
}
