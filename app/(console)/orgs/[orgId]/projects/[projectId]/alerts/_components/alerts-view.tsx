'use client';

import dynamic from 'next/dynamic';
import { useEffect, useRef, useState } from 'react';
import { ListStates } from '@/components/console/list-states';
import { LoadMore } from '@/components/console/load-more';
import { EmptyState } from '@/components/ui/states';
import { useAlerts, useRefreshAlerts } from '@/lib/alerts/queries';
import type { Alert, AlertState } from '@/lib/alerts/schema';
import { useCanCreateSilences } from '@/lib/silences/queries';
import type { SilenceDialogTarget } from '../../silences/_components/edit-silence-dialog';
import { AlertFilter, useAlertFilters } from './alert-filter';
import { RefusalsNote } from './refusals-note';
import { ConnectSender } from './connect-sender';
import { AlertGroup } from './alert-groups';
import { groupByName, silenceFrom } from './alert-model';

// The silence editor (its form, matcher checks and RE2) loads when "Silence…" is first pressed, not with the list.
const SilenceDialog = dynamic(() =>
  import('../../silences/_components/edit-silence-dialog').then((m) => m.SilenceDialog),
);

const HEADING: Record<Exclude<AlertState, 'resolved'>, string> = { firing: 'Firing', silenced: 'Silenced' };

/** One state's alerts, grouped by alertname, with its own pages. */
function AlertSection({
  orgId,
  projectId,
  state,
  filters,
  onSilence,
}: {
  orgId: string;
  projectId: string;
  state: Exclude<AlertState, 'resolved'>;
  filters: string[];
  onSilence: ((alert: Alert) => void) | null;
}) {
  const list = useAlerts(orgId, projectId, state, filters);
  const heading = HEADING[state];
  return (
    <section aria-labelledby={`alerts-${state}`} className="space-y-3">
      <h2 id={`alerts-${state}`} className="text-lg font-semibold text-slate-900">
        {heading}
      </h2>
      <ListStates
        list={list}
        loading={`Loading ${state} alerts`}
        rows={2}
        columns={4}
        empty={
          <EmptyState title={`No ${state} alerts`}>
            {filters.length > 0 ? 'None matches every filter.' : undefined}
          </EmptyState>
        }
      >
        <div className="space-y-4">
          {groupByName(list.items).map(([name, alerts]) => (
            <AlertGroup
              key={name}
              name={name}
              alerts={alerts}
              orgId={orgId}
              projectId={projectId}
              heading={heading}
              onSilence={onSilence}
            />
          ))}
          <LoadMore list={list} />
        </div>
      </ListStates>
    </section>
  );
}

export function AlertsView({ orgId, projectId, origin }: { orgId: string; projectId: string; origin: string }) {
  const filters = useAlertFilters();
  const canCreate = useCanCreateSilences(orgId, projectId) === true;
  const refresh = useRefreshAlerts(orgId, projectId);
  // The Firing section's own query (react-query shares it): a 404 means the project has alerting off.
  const firing = useAlerts(orgId, projectId, 'firing', filters);
  const silenced = useAlerts(orgId, projectId, 'silenced', filters);
  const [opened, setOpened] = useState<{ target: SilenceDialogTarget; fingerprint: string } | null>(null);
  // An alert just silenced moves to Silenced when the lists come back; if its old row took focus with it, focus
  // follows the alert to its new row, on the link to the silence that now mutes it.
  const follow = useRef<string | null>(null);
  useEffect(() => {
    const fingerprint = follow.current;
    if (!fingerprint || firing.items.some((a) => a.fingerprint === fingerprint)) return;
    const lost = !document.activeElement || document.activeElement === document.body;
    const target = document.querySelector<HTMLElement>(`[data-alert="${fingerprint}"] [data-alert-focus]`);
    if (lost && !target) return;
    if (lost) target?.focus();
    follow.current = null;
  }, [firing.items, silenced.items]);

  if (firing.isError && 'status' in firing.error && firing.error.status === 404)
    return (
      <EmptyState title="Alerting is off for this project">
        Alerts are received only in projects with alerting switched on.
      </EmptyState>
    );

  const onSilence = canCreate ? (a: Alert) => setOpened({ target: silenceFrom(a), fingerprint: a.fingerprint }) : null;
  // Nothing received, or nothing left unresolved: how to connect a sender is shown open.
  const noAlerts =
    filters.length === 0 && firing.isSuccess && silenced.isSuccess && firing.items.length + silenced.items.length === 0;
  return (
    <>
      <RefusalsNote orgId={orgId} projectId={projectId} />
      <ConnectSender orgId={orgId} projectId={projectId} origin={origin} noAlerts={noAlerts} />
      <div className="mb-6">
        <AlertFilter />
      </div>
      <div className="space-y-8">
        <AlertSection orgId={orgId} projectId={projectId} state="firing" filters={filters} onSilence={onSilence} />
        <AlertSection orgId={orgId} projectId={projectId} state="silenced" filters={filters} onSilence={onSilence} />
      </div>
      {opened && (
        <SilenceDialog
          orgId={orgId}
          projectId={projectId}
          target={opened.target}
          onClose={() => setOpened(null)}
          onRecreate={() => undefined}
          onSaved={() => {
            follow.current = opened.fingerprint;
            setOpened(null);
            void refresh();
          }}
        />
      )}
    </>
  );
}
