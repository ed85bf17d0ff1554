'use client';

import dynamic from 'next/dynamic';
import { Tabs } from 'radix-ui';
import { useState } from 'react';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { toast } from 'sonner';
import { LocalTime, useNow } from '@/components/console/time';
import { SearchBox, useSearchText } from '@/components/console/search-box';
import { ListStates } from '@/components/console/list-states';
import { LoadMore } from '@/components/console/load-more';
import { useConsoleUser } from '@/components/console/user-context';
import { Button } from '@/components/ui/button';
import { ActionsCell, DataTable } from '@/components/ui/data-table';
import { Badge, EmptyState, ErrorState, ReadOnlyNote, TableSkeleton } from '@/components/ui/states';
import type { Silence, SilenceState } from '@/lib/silences/schema';
import { useCanCreateSilences, useCanUpdateSilences, useSilenceCounts, useSilences } from '@/lib/silences/queries';
import type { CodeAct } from '@/lib/console/code-samples';
import type { SilenceDialogTarget } from './edit-silence-dialog';
import { timeLeft } from './format';

// The editor (its form, matcher checks and RE2) loads when a silence is first opened, not with the list.
const SilenceDialog = dynamic(() => import('./edit-silence-dialog').then((m) => m.SilenceDialog));

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

/** How many alerts a silence mutes now (the server keeps `mutedAlerts`); only an active one mutes anything. */
function MutedCount({ silence }: { silence: Silence }) {
  if (silence.state !== 'active') return <span className="text-slate-500">—</span>;
  return (
    <span data-muted-alerts={silence.mutedAlerts}>
      Mutes {silence.mutedAlerts} {silence.mutedAlerts === 1 ? 'alert' : 'alerts'}
    </span>
  );
}

/** Who made a silence: "You", or the name the API resolved (shown to anyone who can see the silence). */
function useAuthorName() {
  const user = useConsoleUser();
  return (ref: Silence['createdBy']) =>
    ref.type === 'user' && ref.id === user.id ? 'You' : ref.type === 'bot' ? `${ref.name} (bot)` : ref.name;
}

/** One tab: that state's silences, paged by the server. */
function SilenceList({
  orgId,
  projectId,
  state,
  canEdit,
  onOpen,
  onRecreate,
}: {
  orgId: string;
  projectId: string;
  state: SilenceState;
  canEdit: boolean;
  onOpen: (id: string) => void;
  /** Offered on expired silences when the caller may create: a new silence prefilled from this one. */
  onRecreate: ((from: Silence) => void) | null;
}) {
  const q = useSearchText();
  const list = useSilences(orgId, projectId, state, true, q);
  const authorName = useAuthorName();
  const now = useNow();
  const action = (s: Silence) => (canEdit && s.state !== 'expired' ? 'Edit' : 'View');
  return (
    <ListStates
      list={list}
      loading="Loading silences"
      rows={3}
      columns={6}
      empty={
        <EmptyState title={`No ${state} silences`}>
          {q ? `None has “${q}” in its comment or matchers.` : undefined}
        </EmptyState>
      }
    >
      <DataTable
        caption={`${STATE_LABEL[state]} silences`}
        columns={['Matchers', 'Start – end', 'Mutes', 'Comment', 'Created by', null]}
        minWidth="54rem"
        stacked
        footer={<LoadMore list={list} />}
      >
        {list.items.map((s) => (
          <tr key={s.id} data-silence-id={s.id}>
            <td data-label="Matchers" className="px-4 py-3">
              <ul className="flex max-w-[16rem] flex-wrap gap-1" aria-label="Matchers">
                {s.matchers.map((m, i) => (
                  <li key={i}>
                    <MatcherChip matcher={m} />
                  </li>
                ))}
              </ul>
            </td>
            <td data-label="Start – end" className="whitespace-nowrap px-4 py-3 text-slate-700">
              <LocalTime iso={s.startsAt} />
              <span aria-hidden="true"> –</span>
              <br />
              <LocalTime iso={s.endsAt} />
              <p className="text-xs text-slate-500">{timeLeft(s, now)}</p>
            </td>
            <td data-label="Mutes" className="whitespace-nowrap px-4 py-3 tabular-nums text-slate-700">
              <MutedCount silence={s} />
            </td>
            <td data-label="Comment" className="max-w-[14rem] px-4 py-3 text-slate-900 max-sm:max-w-none">
              <p className="line-clamp-2">{s.comment}</p>
            </td>
            <td data-label="Created by" className="whitespace-nowrap px-4 py-3 text-slate-700">
              {authorName(s.createdBy)}
            </td>
            <ActionsCell>
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
                aria-label={`${action(s)} silence: ${s.comment}`}
              >
                {action(s)}
              </Button>
            </ActionsCell>
          </tr>
        ))}
      </DataTable>
    </ListStates>
  );
}

export function SilencesView({
  orgId,
  projectId,
  updateAct,
}: {
  orgId: string;
  projectId: string;
  updateAct: CodeAct;
}) {
  const counts = useSilenceCounts(orgId, projectId);
  const canUpdate = useCanUpdateSilences(orgId, projectId);
  const canCreate = useCanCreateSilences(orgId, projectId) === true;
  // `?open=` names a silence to show at once (the Alerts page links each muting silence so).
  const params = useSearchParams();
  const openParam = params.get('open');
  const router = useRouter();
  const pathname = usePathname();
  // Once that silence is closed, a reload should not open it again.
  const forgetOpenParam = () => {
    if (!openParam) return;
    const rest = new URLSearchParams(params);
    rest.delete('open');
    router.replace(rest.size ? `${pathname}?${rest}` : pathname, { scroll: false });
  };
  const [opened, setOpened] = useState<SilenceDialogTarget | null>(() =>
    openParam ? { kind: 'edit', silenceId: openParam } : null,
  );
  // A link to `?open=` from this page itself (a new silence's toast) opens that silence as well.
  const [shownParam, setShownParam] = useState(openParam);
  if (openParam !== shownParam) {
    setShownParam(openParam);
    if (openParam) setOpened({ kind: 'edit', silenceId: openParam });
  }
  const [tab, setTab] = useState<SilenceState>('active');
  const recreate = (from: Silence) => setOpened({ kind: 'new', from });

  if (counts.isPending) return <TableSkeleton rows={3} columns={6} label="Loading silences" />;
  if (counts.isError) {
    const notOffered = 'status' in counts.error && counts.error.status === 404;
    return notOffered ? (
      <EmptyState title="Alerting is off for this project">
        Silences exist only in projects with alerting switched on.
      </EmptyState>
    ) : (
      <ErrorState message={counts.error.message} onRetry={() => void counts.refetch()} />
    );
  }

  return (
    <>
      <div className="mb-4 flex flex-wrap items-end justify-between gap-4">
        <SearchBox label="Search silences" placeholder="Part of a comment, label or value" />
        {canCreate && <Button onClick={() => setOpened({ kind: 'new' })}>New silence</Button>}
      </div>
      {canUpdate === false && (
        <ReadOnlyNote>
          Read-only: changing silences needs the <code className="font-mono text-xs">obs.silences.update</code>{' '}
          permission on this project.
        </ReadOnlyNote>
      )}
      <Tabs.Root value={tab} onValueChange={(v) => setTab(v as SilenceState)}>
        <Tabs.List aria-label="Silences by state" className="mb-4 flex gap-1 overflow-x-auto border-b border-slate-200">
          {TAB_ORDER.map((state) => (
            <Tabs.Trigger
              key={state}
              value={state}
              className="-mb-px inline-flex items-center gap-2 border-b-2 border-transparent px-3 py-2 text-sm font-medium text-slate-600 hover:text-slate-900 data-[state=active]:border-indigo-600 data-[state=active]:text-indigo-700"
            >
              {STATE_LABEL[state]}
              <Badge tone={state === 'active' ? 'green' : state === 'scheduled' ? 'indigo' : 'slate'}>
                {counts.data[state]}
              </Badge>
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {TAB_ORDER.map((state) => (
          <Tabs.Content key={state} value={state} className="focus:outline-none">
            <SilenceList
              orgId={orgId}
              projectId={projectId}
              state={state}
              canEdit={canUpdate === true}
              onOpen={(silenceId) => setOpened({ kind: 'edit', silenceId })}
              onRecreate={canCreate ? recreate : null}
            />
          </Tabs.Content>
        ))}
      </Tabs.Root>
      {opened && (
        <SilenceDialog
          key={opened.kind === 'edit' ? opened.silenceId : 'new'}
          orgId={orgId}
          projectId={projectId}
          target={opened}
          updateAct={updateAct}
          onClose={() => {
            setOpened(null);
            forgetOpenParam();
          }}
          onRecreate={recreate}
          onSaved={(silence, verb) => {
            setOpened(null);
            forgetOpenParam();
            setTab(silence.state);
            // A create announces itself through its save; an expiry is announced here.
            if (verb === 'Expired') toast.success(`Expired silence ${silence.slug}: it is ${silence.state}.`);
          }}
        />
      )}
    </>
  );
}
