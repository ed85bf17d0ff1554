'use client';

import Link from 'next/link';
import { useEffect, useRef, useState } from 'react';
import { CodeSnippet } from '@/components/console/code-snippet';
import { CopyButton } from '@/components/console/copy-id';
import { SecretRevealDialog } from '@/components/console/secret-reveal-dialog';
import { RelativeTime } from '@/components/console/time';
import { newKeyHref } from '@/components/console/use-from-code';
import { DisclosureHeading } from '@/components/ui/disclosure-heading';
import { hasGrant, usePermissions } from '@/lib/access/queries';
import { AMTOOL_SILENCE_COMMANDS, AMTOOL_SILENCE_PERMISSIONS } from '@/lib/alertmanager/amtool-permissions';
import { useAlertRefusals, useRefreshAlerts } from '@/lib/alerts/queries';
import { useProjects } from '@/lib/orgs/queries';
import { listInWords } from '@/lib/policy-description';
import { MakeSenderForm, type MadeSender } from './make-sender';
import {
  alertmanagerUrl,
  AMTOOL_KEY_PLACEHOLDER,
  amtoolSnippet,
  prometheusSnippet,
  type SenderTarget,
} from './sender-snippets';

/** When the project's Alertmanager API last received alerts: the first sign that a sender is connected. */
export function LastPost({ at }: { at: string | null | undefined }) {
  return (
    <p className="min-h-5 text-sm text-slate-700">
      {at === undefined ? (
        ''
      ) : at === null ? (
        'No alert post received yet.'
      ) : (
        <>
          Last alert post received <RelativeTime iso={at} />.
        </>
      )}
    </p>
  );
}

/**
 * How to send this project alerts and manage its silences from the command line: the Alertmanager URL, a sender
 * bot and key made in one step (shown once, then in the prometheus.yml snippet until the page is left), and
 * amtool's configuration. Open while the project has no alert; behind "Connect a sender" otherwise.
 */
export function ConnectSender({
  orgId,
  projectId,
  origin,
  noAlerts,
}: {
  orgId: string;
  projectId: string;
  origin: string;
  noAlerts: boolean;
}) {
  const [toggled, setToggled] = useState<boolean | null>(null);
  const [made, setMade] = useState<MadeSender | null>(null);
  const [revealing, setRevealing] = useState<string | null>(null);
  const posts = useAlertRefusals(orgId, projectId, made?.createdAt);
  const lastPostAt = posts.data?.lastPostAt;
  const refresh = useRefreshAlerts(orgId, projectId);
  const permissions = usePermissions(orgId);
  const project = useProjects(orgId).items.find((p) => p.id === projectId);
  // The first post after the key was made: the alerts it brought are shown now, not at the next 30 s refresh.
  const refreshedOnFirstPost = useRef(false);
  useEffect(() => {
    if (refreshedOnFirstPost.current || !made || !lastPostAt) return;
    if (Date.parse(lastPostAt) < Date.parse(made.createdAt)) return;
    refreshedOnFirstPost.current = true;
    void refresh();
  });

  const open = toggled ?? (noAlerts || made !== null);
  const target: SenderTarget = { origin, orgId, projectId };
  const may = (permission: Parameters<typeof hasGrant>[1], inProject = false) =>
    hasGrant(permissions.data, permission, inProject ? projectId : undefined) === true;
  const canMake = may('bots.create') && may('bots.createApiKey') && may('obs.alerts.create', true);

  return (
    <section aria-labelledby="connect-sender" className="mb-6 rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200">
      <DisclosureHeading
        id="connect-sender"
        open={open}
        onToggle={() => setToggled(!open)}
        controls="connect-sender-steps"
        className="text-base font-semibold text-slate-900"
      >
        Connect a sender
      </DisclosureHeading>
      <LastPost at={lastPostAt} />
      <div id="connect-sender-steps" hidden={!open} className="mt-4 space-y-5">
        <p className="text-sm text-slate-700">
          Prometheus sends this project its alerts through an Alertmanager API of its own; amtool and Grafana read them
          and manage its silences there.
        </p>
        <div className="space-y-1">
          <h3 className="text-sm font-medium text-slate-800">Alertmanager URL</h3>
          <div className="flex min-w-0 flex-wrap items-center gap-2">
            <code className="min-w-0 break-all rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-900">
              {alertmanagerUrl(target)}
            </code>
            <CopyButton text={alertmanagerUrl(target)} what="Alertmanager URL" />
          </div>
        </div>
        <div className="space-y-2">
          <h3 className="text-sm font-medium text-slate-800">1. A key that may only send alerts here</h3>
          {made ? (
            <p className="text-sm text-slate-700">
              Made the bot {made.botName} (AlertSender in {project?.name ?? 'this project'}) and its key{' '}
              <span className="font-mono">{made.prefix}…</span>: the key is in the prometheus.yml below until you leave
              this page, and never shown again.
            </p>
          ) : canMake ? (
            <MakeSenderForm
              orgId={orgId}
              projectId={projectId}
              projectName={project?.name ?? ''}
              onMade={(sender) => {
                setMade(sender);
                setRevealing(sender.secret);
              }}
            />
          ) : (
            <p className="text-sm text-slate-700">
              Making a sender needs bots.create and bots.createApiKey, and obs.alerts.create in this project: ask an
              administrator, or use any key that may post alerts here.
            </p>
          )}
        </div>
        <CodeSnippet
          id="sender-prometheus"
          title="2. prometheus.yml: add to its alerting section"
          text={prometheusSnippet(target, made?.secret ?? null)}
        />
        <div className="space-y-1">
          <CodeSnippet
            id="sender-amtool"
            title="3. ~/.config/prometheus/amtool.yml, for amtool"
            text={amtoolSnippet(target, null)}
          />
          <p id="amtool-key-hint" className="text-sm text-slate-600">
            With a key of yours from{' '}
            <Link href={`/orgs/${orgId}/api-keys`} className="font-semibold text-indigo-700 hover:text-indigo-600">
              API keys
            </Link>
            . Restricted, it needs in this project:
          </p>
          <ul aria-labelledby="amtool-key-hint" className="space-y-0.5 text-sm text-slate-600">
            {AMTOOL_SILENCE_COMMANDS.map(({ command, permissions }) => (
              <li key={command}>
                <span className="font-mono text-slate-800">amtool {command}</span>:{' '}
                <span className="font-mono">{listInWords(permissions)}</span>
              </li>
            ))}
          </ul>
          <p className="text-sm text-slate-600">
            <Link
              href={newKeyHref(orgId, projectId, AMTOOL_SILENCE_PERMISSIONS)}
              className="font-semibold text-indigo-700 hover:text-indigo-600"
            >
              Create a key for amtool
            </Link>{' '}
            starts one restricted to all four in this project; put it in place of {AMTOOL_KEY_PLACEHOLDER}.
          </p>
        </div>
      </div>
      <SecretRevealDialog
        title={`Key of the bot ${made?.botName ?? ''}`}
        label="Sender key"
        secret={revealing}
        description="Copy it now, or copy the prometheus.yml snippet, which holds it until you leave this page."
        advice="This is the only time it is shown: once you leave this page, nobody can see it again."
        onClose={() => setRevealing(null)}
        returnFocus={() => document.getElementById('sender-prometheus')?.closest('figure')?.querySelector('button')}
      />
    </section>
  );
}
