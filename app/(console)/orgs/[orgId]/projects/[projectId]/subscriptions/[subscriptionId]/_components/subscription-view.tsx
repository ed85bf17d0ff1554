'use client';

import dynamic from 'next/dynamic';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useRef, useState, type ReactNode } from 'react';
import { CopyId } from '@/components/console/copy-id';
import { runMutation } from '@/components/console/feedback';
import { NotFoundPanel } from '@/components/console/not-found-panel';
import { reauthenticationMessage } from '@/components/console/reauthentication';
import { SecretRevealDialog } from '@/components/console/secret-reveal-dialog';
import { LocalDate } from '@/components/console/time';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ErrorState, PageHeader, ReadOnlyNote } from '@/components/ui/states';
import { hasGrant, usePermissions } from '@/lib/access/queries';
import { ApiRequestError } from '@/lib/api-client';
import { useQueue } from '@/lib/queues/queries';
import { knownTarget } from '@/lib/subscriptions/known-target';
import {
  useDeleteSubscription,
  useRotateSubscriptionSecret,
  useSetSubscriptionState,
  useSubscription,
  useSubscriptionActivity,
} from '@/lib/subscriptions/queries';
import type { Subscription } from '@/lib/subscriptions/schema';
import { ActivityChart } from './activity-chart';
import { DeadLetters } from './dead-letters';
import { RecentDeliveries } from './recent-deliveries';
import { BacklogFigures, StatusPanel } from './status-panels';

// The editor and its form load when it is first opened, not with the page.
const SubscriptionDialog = dynamic(() =>
  import('../../_components/subscription-dialog').then((m) => m.SubscriptionDialog),
);

function Setting({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-sm font-medium text-slate-600">{term}</dt>
      <dd className="mt-1 break-words text-sm text-slate-900">{children}</dd>
    </div>
  );
}

/** Where it delivers and how: the settings the edit dialog changes, the queue it reads and its id. */
function Settings({ sub, queueName, queueHref }: { sub: Subscription; queueName?: string; queueHref: string }) {
  const target = knownTarget(sub.target);
  const policy = sub.retryPolicy;
  return (
    <dl className="grid gap-4 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-2 lg:grid-cols-3">
      <Setting term="Subscription ID">
        <CopyId id={sub.id} what="subscription" />
      </Setting>
      <Setting term="Queue">
        <Link href={queueHref} className="font-semibold text-indigo-700 hover:underline">
          {queueName ?? <span className="font-mono text-xs">{sub.queueId}</span>}
        </Link>
      </Setting>
      <Setting term="Target">
        {target.kind === 'https' ? (
          <span className="font-mono text-xs">{target.url}</span>
        ) : target.kind === 'workflow' ? (
          <>
            Workflow <span className="font-mono text-xs">{target.workflowId}</span>
          </>
        ) : (
          'Unknown kind'
        )}
      </Setting>
      {target.kind === 'https' && <Setting term="Timeout">{target.timeoutSeconds} s</Setting>}
      <Setting term="Batch size">{sub.batchSize} messages</Setting>
      <Setting term="Max concurrency">{sub.maxConcurrency} deliveries</Setting>
      <Setting term="Retry policy">
        {policy.maxAttempts} attempts, waiting {policy.minBackoffSeconds} s to {policy.maxBackoffSeconds} s between
      </Setting>
      <Setting term="Created">
        <LocalDate iso={sub.createdAt} exact />
      </Setting>
    </dl>
  );
}

/**
 * One subscription as it works: status, backlog and the last hour (refreshed every few seconds while visible),
 * deliveries and dead letters; Edit, Pause or Resume, Rotate secret and Delete.
 */
export function SubscriptionView({
  orgId,
  projectId,
  subscriptionId,
}: {
  orgId: string;
  projectId: string;
  subscriptionId: string;
}) {
  const router = useRouter();
  const subscription = useSubscription(orgId, projectId, subscriptionId);
  const activity = useSubscriptionActivity(orgId, projectId, subscriptionId);
  const sub = subscription.data;
  const queue = useQueue(orgId, projectId, sub?.queueId);
  const permissions = usePermissions(orgId);
  const may = (permission: Parameters<typeof hasGrant>[1]) => hasGrant(permissions.data, permission, projectId);
  const canEdit = may('queues.subscriptions.update') ?? false;
  const setState = useSetSubscriptionState(orgId, projectId);
  const rotate = useRotateSubscriptionSecret(orgId, projectId);
  const remove = useDeleteSubscription(orgId, projectId);
  const [editing, setEditing] = useState(false);
  const [toggling, setToggling] = useState(false);
  const [rotating, setRotating] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const rotateButton = useRef<HTMLButtonElement>(null);

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

  const pausing = sub?.state === 'active';
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
            sub && (
              <>
                {permissions.isSuccess && (
                  <Button variant="secondary" onClick={() => setEditing(true)}>
                    {canEdit ? 'Edit settings' : 'View settings'}
                  </Button>
                )}
                {canEdit && (sub.state === 'active' || sub.state === 'paused') && (
                  <Button variant="secondary" onClick={() => setToggling(true)}>
                    {pausing ? 'Pause' : 'Resume'}
                  </Button>
                )}
                {canEdit && (
                  <Button ref={rotateButton} variant="secondary" onClick={() => (setRefusal(null), setRotating(true))}>
                    Rotate secret
                  </Button>
                )}
                {may('queues.subscriptions.delete') && (
                  <Button variant="danger" onClick={() => setDeleting(true)}>
                    Delete
                  </Button>
                )}
              </>
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

      {sub && editing && (
        <SubscriptionDialog
          orgId={orgId}
          projectId={projectId}
          subscription={sub}
          canEdit={canEdit}
          onClose={() => setEditing(false)}
        />
      )}
      <ConfirmDialog
        open={toggling}
        onOpenChange={setToggling}
        title={`${pausing ? 'Pause' : 'Resume'} ${sub?.slug ?? ''}?`}
        description={
          pausing ? (
            <p>Deliveries stop until you resume it; messages wait in its backlog meanwhile.</p>
          ) : (
            <p>Deliveries start again, beginning with the messages that waited in its backlog.</p>
          )
        }
        confirmLabel={pausing ? 'Pause subscription' : 'Resume subscription'}
        tone={pausing ? 'danger' : 'primary'}
        onConfirm={async () => {
          if (!sub) return true;
          const outcome = await runMutation(
            () => setState.mutateAsync({ id: sub.id, action: pausing ? 'pause' : 'resume' }),
            {
              success: (changed) => `${changed.state === 'paused' ? 'Paused' : 'Resumed'} ${changed.slug}.`,
              failure: pausing ? 'Not paused' : 'Not resumed',
            },
          );
          return outcome.ok;
        }}
      />
      <ConfirmDialog
        open={rotating}
        onOpenChange={setRotating}
        tone="primary"
        title="Rotate the signing secret?"
        description={
          <p>A new secret signs every delivery from now on. The current one keeps signing beside it for 24 hours.</p>
        }
        confirmLabel="Rotate secret"
        onConfirm={async () => {
          if (!sub) return true;
          const outcome = await runMutation(() => rotate(sub.id), {
            success: `Rotated the signing secret of ${sub.slug}. Copy the new one now.`,
            failure: 'Could not rotate the secret',
            placeIssues: (error) => {
              const reauth = reauthenticationMessage(error, 'rotate the signing secret');
              if (reauth) setRefusal(reauth);
              return !reauth;
            },
          });
          if (outcome.ok) setSecret(outcome.data.signingSecret);
          return true;
        }}
      />
      <SecretRevealDialog
        title="The new signing secret"
        label="Signing secret"
        description="Your receiver checks each delivery's signature with it. Copy it now: it will never be shown again."
        secret={secret}
        onClose={() => setSecret(null)}
        returnFocus={() => rotateButton.current}
      />
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title={`Delete ${sub?.slug ?? 'this subscription'}?`}
        description={
          <p>
            Nothing more is delivered to its target. Its backlog, dead letters and delivery records are deleted with it.
            This cannot be undone.
          </p>
        }
        confirmLabel="Delete subscription"
        removesOpener
        onConfirm={async () => {
          if (!sub) return false;
          const outcome = await runMutation(() => remove.mutateAsync(sub.id), {
            success: `Deleted the subscription ${sub.slug}.`,
            failure: `Could not delete ${sub.slug}`,
          });
          if (outcome.ok) router.push(queueHref);
          return outcome.ok;
        }}
      />
    </>
  );
}
