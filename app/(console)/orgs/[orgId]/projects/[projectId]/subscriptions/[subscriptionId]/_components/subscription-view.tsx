'use client';

import Link from 'next/link';
import { useState } from 'react';
import { NotFoundPanel } from '@/components/console/not-found-panel';
import { ErrorState, PageHeader, ReadOnlyNote } from '@/components/ui/states';
import { hasGrant, usePermissions } from '@/lib/access/queries';
import { ApiRequestError } from '@/lib/api-client';
import type { CodeAct } from '@/lib/console/code-samples';
import { useQueue } from '@/lib/queues/queries';
import { knownTarget } from '@/lib/subscriptions/known-target';
import { useSubscription, useSubscriptionActivity } from '@/lib/subscriptions/queries';
import { ActivityChart } from './activity-chart';
import { DeadLetters } from './dead-letters';
import { RecentDeliveries } from './recent-deliveries';
import { Settings } from './settings-panel';
import { BacklogFigures, StatusPanel } from './status-panels';
import { SubscriptionActions } from './subscription-actions';
import { SubscriptionCode } from './subscription-code';
import type { SubscriptionAddress } from './subscription-address';

/**
 * One subscription as it works: status, backlog and the last hour (refreshed every few seconds while visible),
 * deliveries and dead letters; Edit, Pause or Resume, Rotate secret and Delete.
 */
export function SubscriptionView({
  orgId,
  projectId,
  subscriptionId,
  read,
  activity: activityAct,
}: SubscriptionAddress & { read: CodeAct; activity: CodeAct }) {
  const subscription = useSubscription(orgId, projectId, subscriptionId);
  const activity = useSubscriptionActivity(orgId, projectId, subscriptionId);
  const sub = subscription.data;
  const queue = useQueue(orgId, projectId, sub?.queueId);
  const permissions = usePermissions(orgId);
  const may = (permission: Parameters<typeof hasGrant>[1]) => hasGrant(permissions.data, permission, projectId);
  const canEdit = may('queues.subscriptions.update') ?? false;
  const [refusal, setRefusal] = useState<string | null>(null);

  const queueHref = `/orgs/${orgId}/projects/${projectId}/queues/${sub?.queueId ?? ''}`;
  if (subscription.error instanceof ApiRequestError && subscription.error.status === 404)
    return (
      <NotFoundPanel
        title="Not found"
        backHref={`/orgs/${orgId}/projects/${projectId}/subscriptions`}
        backLabel="Back to the subscriptions"
      >
        This subscription does not exist in this project, or it was deleted.
      </NotFoundPanel>
    );
  if (subscription.isError)
    return (
      <ErrorState
        title="Could not load the subscription"
        message={subscription.error.message}
        onRetry={() => void subscription.refetch()}
      />
    );

  const target = sub ? knownTarget(sub.target) : null;
  const queueName = queue.data?.name;

  return (
    <>
      <nav aria-label="Breadcrumb" className="text-sm">
        <ol className="flex flex-wrap items-center gap-1 text-slate-600">
          <li>
            <Link
              href={`/orgs/${orgId}/projects/${projectId}/queues`}
              className="font-semibold text-indigo-700 hover:underline"
            >
              Queues
            </Link>
          </li>
          <li aria-hidden="true">/</li>
          <li>
            <Link href={queueHref} className="font-semibold text-indigo-700 hover:underline">
              {queueName ?? 'Queue'}
            </Link>
          </li>
        </ol>
      </nav>
      <div className="mt-2">
        <PageHeader
          title={sub ? `Subscription ${sub.slug}` : 'Subscription'}
          description={
            target?.kind === 'https' ? (
              <span className="break-all font-mono">{target.url}</span>
            ) : target?.kind === 'workflow' ? (
              'Delivers to a workflow.'
            ) : (
              'Loading…'
            )
          }
          actions={
            sub &&
            permissions.isSuccess && (
              <SubscriptionActions
                orgId={orgId}
                projectId={projectId}
                sub={sub}
                canEdit={canEdit}
                canDelete={may('queues.subscriptions.delete') ?? false}
                queueHref={queueHref}
                onRefusal={setRefusal}
              />
            )
          }
        />
      </div>
      {permissions.isSuccess && !canEdit && (
        <ReadOnlyNote>
          Read-only: changing this subscription needs the{' '}
          <code className="font-mono text-xs">queues.subscriptions.update</code> permission on this project.
        </ReadOnlyNote>
      )}
      {target?.kind === 'workflow' && (
        <p role="note" className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          This subscription delivers to a workflow, and this installation does not run workflows: it holds its messages
          in its backlog and delivers nothing.
        </p>
      )}
      {sub?.state === 'paused' && target?.kind !== 'workflow' && (
        <p role="note" className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Paused: messages wait in the backlog and nothing is delivered until you resume it.
        </p>
      )}
      {refusal && (
        <p role="alert" className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {refusal}
        </p>
      )}
      {sub && <StatusPanel sub={sub} />}
      {sub && (
        <div className="mt-4">
          <SubscriptionCode
            orgId={orgId}
            projectId={projectId}
            subscriptionSlug={sub.slug}
            read={read}
            activity={activityAct}
          />
        </div>
      )}

      <section aria-labelledby="backlog-title" className="mt-8">
        <h2 id="backlog-title" className="mb-3 text-lg font-semibold text-slate-900">
          Backlog
        </h2>
        {sub && <BacklogFigures sub={sub} backlog={activity.data?.backlog} />}
      </section>

      <section aria-labelledby="activity-title" className="mt-8">
        <h2 id="activity-title" className="mb-3 text-lg font-semibold text-slate-900">
          Last hour
        </h2>
        {activity.isError ? (
          <ErrorState
            title="Could not load the last hour"
            message={activity.error.message}
            onRetry={() => void activity.refetch()}
          />
        ) : activity.data ? (
          <ActivityChart minutes={activity.data.minutes} />
        ) : (
          <div
            role="status"
            aria-label="Loading the last hour"
            className="h-64 animate-pulse rounded-lg bg-slate-200"
          />
        )}
      </section>

      <RecentDeliveries orgId={orgId} projectId={projectId} subscriptionId={subscriptionId} />
      <DeadLetters
        orgId={orgId}
        projectId={projectId}
        subscriptionId={subscriptionId}
        total={activity.data?.backlog.deadLettered}
        canRedrive={may('queues.subscriptions.redrive') ?? false}
      />

      <section aria-labelledby="settings-title" className="mt-8">
        <h2 id="settings-title" className="mb-3 text-lg font-semibold text-slate-900">
          Settings
        </h2>
        {sub && <Settings sub={sub} queueName={queueName} queueHref={queueHref} />}
      </section>
    </>
  );
}
