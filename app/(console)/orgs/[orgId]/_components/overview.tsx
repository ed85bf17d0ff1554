'use client';

import Link from 'next/link';
import type { ReactNode } from 'react';
import { LocalDate } from '@/components/console/time';
import { useConsoleUser } from '@/components/console/user-context';
import { Badge, ErrorState, PageHeader } from '@/components/ui/states';
import { hasGrant, usePermissions } from '@/lib/access/queries';
import { useApiKeys } from '@/lib/api-keys/queries';
import { useProjects } from '@/lib/orgs/queries';
import type { Project } from '@/lib/orgs/schema';
import { useSilenceCounts } from '@/lib/silences/queries';
import type { ProjectSubscriptionHealth } from '@/lib/subscriptions/health-schema';
import { useSubscriptionHealth } from '@/lib/subscriptions/queries';
import { AttentionCard } from './attention-card';
import { RecentAuditEvents } from './recent-audit-events';
import { GettingStarted } from './getting-started';

const Quiet = ({ children }: { children: ReactNode }) => <p className="text-slate-500">{children}</p>;

/**
 * The expiring keys panel lists this many at most (and a line saying there are more), and keeps that room while
 * it loads, so its arrival moves nothing below it.
 */
const SHOWN = 4;

function ExpiringKeys({ orgId }: { orgId: string }) {
  const me = useConsoleUser();
  const permissions = usePermissions(orgId);
  const everyone = hasGrant(permissions.data, 'apiKeys.list') === true;
  // The server's own filter (`expiring=soon`, the next 7 days), so a key past the first page of all keys is found.
  const keys = useApiKeys(orgId, everyone ? 'all' : 'me', true);
  const soon = [...keys.items].sort((a, b) => Date.parse(a.expiresAt!) - Date.parse(b.expiresAt!));
  const more = soon.length > SHOWN || keys.hasNextPage;
  return (
    <AttentionCard title="API keys expiring within 7 days" href={`/orgs/${orgId}/api-keys`}>
      <div className="min-h-[7.25rem]">
        {keys.isPending ? (
          <Quiet>Loading…</Quiet>
        ) : keys.isError ? (
          <ErrorState title="Could not load API keys" message={keys.error.message} />
        ) : soon.length === 0 ? (
          <Quiet>No key expires in the next 7 days.</Quiet>
        ) : (
          <>
            <ul className="space-y-1">
              {soon.slice(0, SHOWN).map((k) => (
                <li key={k.id} className="flex min-w-0 justify-between gap-2">
                  <span className="min-w-0 truncate font-medium text-slate-900">
                    {k.name} <span className="font-mono text-xs text-slate-600">{k.prefix}…</span>
                  </span>
                  <span className="shrink-0 text-slate-600">
                    {k.owner.type === 'user' && k.owner.id === me.id ? 'You' : k.owner.name} ·{' '}
                    <LocalDate iso={k.expiresAt!} />
                  </span>
                </li>
              ))}
            </ul>
            {more && <p className="mt-1 text-slate-500">More keys expire soon: open API keys to see them all.</p>}
          </>
        )}
      </div>
    </AttentionCard>
  );
}

const figureLink = 'inline-flex min-h-6 items-center gap-1.5 font-medium text-indigo-700 hover:underline';

/**
 * A project's subscriptions at a glance, from the organization's one read (`…/subscription-health`): how many fail
 * (the project's list shows which) and the dead letters they hold (on the page of the subscription with the most).
 */
function SubscriptionHealthCard({
  orgId,
  project,
  health,
}: {
  orgId: string;
  project: Project;
  health: ProjectSubscriptionHealth;
}) {
  const list = `/orgs/${orgId}/projects/${project.id}/subscriptions`;
  const dead = health.deadLetterSubscription;
  return (
    <AttentionCard title={`Subscriptions in ${project.name}`} href={list}>
      <ul className="space-y-2">
        <li>
          <Link href={list} className={figureLink}>
            <Badge tone={health.failing > 0 ? 'red' : 'green'}>{health.failing}</Badge>{' '}
            {health.failing === 1 ? 'failing subscription' : 'failing subscriptions'}
          </Link>
          <span className="text-slate-600"> of {health.subscriptions}</span>
        </li>
        <li>
          {dead ? (
            <>
              <Link href={`${list}/${dead.id}#dead-letters-title`} className={figureLink}>
                <Badge tone="amber">{health.deadLetters}</Badge>{' '}
                {health.deadLetters === 1 ? 'dead letter' : 'dead letters'}
              </Link>
              <span className="text-slate-600">
                , most in <span className="font-mono text-xs text-slate-900">{dead.slug}</span>
              </span>
            </>
          ) : (
            <span className="inline-flex min-h-6 items-center gap-1.5">
              <Badge tone="green">0</Badge> dead letters
            </span>
          )}
        </li>
      </ul>
    </AttentionCard>
  );
}

/** One read for every project's subscriptions: a card for each project the caller may see that has any. */
function SubscriptionHealthCards({ orgId, projects }: { orgId: string; projects: Project[] }) {
  const health = useSubscriptionHealth(orgId);
  if (health.isError)
    return (
      <section className="min-w-0 rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200" aria-label="Subscriptions">
        <ErrorState title="Could not load the subscriptions' health" message={health.error.message} />
      </section>
    );
  const byId = new Map(projects.map((p) => [p.id, p]));
  return (health.data?.items ?? []).flatMap((h) => {
    const project = byId.get(h.projectId);
    return project
      ? [<SubscriptionHealthCard key={`subs-${h.projectId}`} orgId={orgId} project={project} health={h} />]
      : [];
  });
}

function SilenceSummary({ orgId, project }: { orgId: string; project: Project }) {
  const counts = useSilenceCounts(orgId, project.id, project.alertingEnabled);
  if (!project.alertingEnabled) return null;
  return (
    <AttentionCard title={`Silences in ${project.name}`} href={`/orgs/${orgId}/projects/${project.id}/silences`}>
      {counts.isPending ? (
        <Quiet>Loading…</Quiet>
      ) : counts.isError ? (
        <ErrorState title="Could not load silences" message={counts.error.message} />
      ) : (
        <p className="flex flex-wrap gap-3">
          <span>
            <Badge tone="green">{counts.data.active}</Badge> active
          </span>
          <span>
            <Badge tone="indigo">{counts.data.scheduled}</Badge> scheduled
          </span>
        </p>
      )}
    </AttentionCard>
  );
}

/** The organization's home (where signing in lands): what needs attention, each linking to its page. */
export function Overview({ orgId }: { orgId: string }) {
  const projects = useProjects(orgId);
  const permissions = usePermissions(orgId);
  // Known once the permissions answer (or fail): only then does the audit panel's place go to whoever may not read
  // the log, and only then come the projects' panels, so that place closing moves none of them.
  const known = !permissions.isPending;
  const readsAudit = !known || hasGrant(permissions.data, 'auditLog.read') === true;
  return (
    <>
      {/* One text from the first paint on: a name arriving later would rewrap it and move every panel (the
          organization's name is in the switcher, or the top bar on a phone). */}
      <PageHeader title="Overview" description="What needs attention in this organization." />
      {/* With the page from the server, so it moves nothing below it when hydrated. */}
      <GettingStarted orgId={orgId} />
      {/* The organization's panels first, the projects' after them: the projects' panels arrive with the project
          list, and added at the end they push nothing down (Lighthouse counted 0.13 of layout shift when the
          audit panel came last). */}
      <div className="grid grid-cols-1 gap-4 xl:grid-cols-2">
        <ExpiringKeys orgId={orgId} />
        {readsAudit && <RecentAuditEvents orgId={orgId} />}
        {known && <SubscriptionHealthCards orgId={orgId} projects={projects.items} />}
        {known && projects.items.map((p) => <SilenceSummary key={`silences-${p.id}`} orgId={orgId} project={p} />)}
      </div>
    </>
  );
}
