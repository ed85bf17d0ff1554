'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { whenOpened } from '@/components/ui/opened-once';
import { EmptyState, ErrorState, PageHeader, ReadOnlyNote, TableSkeleton } from '@/components/ui/states';
import { CopyId } from '@/components/console/copy-id';
import { runMutation } from '@/components/console/feedback';
import { NotFoundPanel } from '@/components/console/not-found-panel';
import { SecretRevealDialog } from '@/components/console/secret-reveal-dialog';
import { LocalDate } from '@/components/console/time';
import { hasGrant, usePermissions } from '@/lib/access/queries';
import { ApiRequestError } from '@/lib/api-client';
import { useDeleteQueue, useQueue } from '@/lib/queues/queries';
import { subscriptionKeys, useProjectSubscriptions, useSubscriptionActivities } from '@/lib/subscriptions/queries';
import type { CodeAct } from '@/lib/console/code-samples';
import type { CreatedSubscription } from '@/lib/subscriptions/schema';
import { retentionWords } from '../../_components/queue-words';
import { QueueCode } from './queue-code';
import { QueueSubscriptions } from './queue-subscriptions';

// The dialogs (their forms and zod) load at the first sign of a person on the page, not with it.
const PublishDialog = whenOpened(
  () => import('./publish-dialog'),
  (m) => m.PublishDialog,
  (props) => props.open,
  { early: true },
);
const NewSubscriptionDialog = whenOpened(
  () => import('./new-subscription-dialog'),
  (m) => m.NewSubscriptionDialog,
  (props) => props.open,
  { early: true },
);

/** One queue: its id, its subscriptions and what waits in them; Publish message, New subscription, Delete. */
export function QueueView({
  orgId,
  projectId,
  queueId,
  publish,
  readQueue,
}: {
  orgId: string;
  projectId: string;
  queueId: string;
  /** Publishing, and the read `svc` makes first, as the registry declares them: for "Use from code". */
  publish: CodeAct;
  readQueue: CodeAct;
}) {
  const router = useRouter();
  const client = useQueryClient();
  const queue = useQueue(orgId, projectId, queueId);
  const subscriptions = useProjectSubscriptions(orgId, projectId, { live: true });
  const permissions = usePermissions(orgId);
  const may = (permission: Parameters<typeof hasGrant>[1]) => hasGrant(permissions.data, permission, projectId);
  const remove = useDeleteQueue(orgId, projectId);
  const [publishing, setPublishing] = useState(false);
  const [subscribing, setSubscribing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  // The one place a new subscription's secret exists in the console: this state, dropped when the reveal closes.
  const [secret, setSecret] = useState<string | null>(null);
  const subscribeButton = useRef<HTMLButtonElement>(null);

  const items = subscriptions.items.filter((s) => s.queueId === queueId);
  const activities = useSubscriptionActivities(
    orgId,
    projectId,
    items.map((s) => s.id),
  );
  const backlogs = new Map(items.map((s, i) => [s.id, activities[i]?.data?.backlog]));

  const back = (
    <Link
      href={`/orgs/${orgId}/projects/${projectId}/queues`}
      className="text-sm font-semibold text-indigo-700 hover:underline"
    >
      ← Queues
    </Link>
  );
  if (queue.error instanceof ApiRequestError && queue.error.status === 404)
    return (
      <NotFoundPanel backHref={`/orgs/${orgId}/projects/${projectId}/queues`} backLabel="Back to the queues">
        This queue does not exist in this project, or it was deleted.
      </NotFoundPanel>
    );
  if (queue.isError)
    return (
      <>
        {back}
        <ErrorState
          title="Could not load the queue"
          message={queue.error.message}
          onRetry={() => void queue.refetch()}
        />
      </>
    );
  const q = queue.data;
  const name = q?.name ?? 'Queue';

  const onCreated = (created: CreatedSubscription) => {
    setSubscribing(false);
    setSecret(created.signingSecret);
  };
  // What was published shows in each subscription's backlog at once, not at the next refresh.
  const onPublished = () => {
    for (const sub of items)
      void client.invalidateQueries({ queryKey: subscriptionKeys.activity(orgId, projectId, sub.id) });
  };

  return (
    <>
      {back}
      <div className="mt-2">
        <PageHeader
          title={name}
          description={
            q ? (
              <>
                Queue <span className="font-mono">{q.slug}</span>: every message published here goes to each of its
                subscriptions.
              </>
            ) : (
              'Loading…'
            )
          }
          actions={
            q && (
              <>
                {may('queues.messages.publish') && (
                  <Button variant="secondary" onClick={() => setPublishing(true)}>
                    Publish message
                  </Button>
                )}
                {may('queues.subscriptions.create') && (
                  <Button ref={subscribeButton} onClick={() => setSubscribing(true)}>
                    New subscription
                  </Button>
                )}
                {may('queues.queues.delete') && (
                  <Button variant="danger" onClick={() => (setRefusal(null), setDeleting(true))}>
                    Delete queue
                  </Button>
                )}
              </>
            )
          }
        />
      </div>
      {permissions.isSuccess && !may('queues.subscriptions.create') && (
        <ReadOnlyNote>
          Read-only: publishing and adding subscriptions need the QueuesEditor role (
          <code className="font-mono text-xs">queues.messages.publish</code>,{' '}
          <code className="font-mono text-xs">queues.subscriptions.create</code>) on this project.
        </ReadOnlyNote>
      )}
      {refusal && (
        <p role="alert" className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {refusal}
        </p>
      )}
      <dl className="grid min-h-[4.5rem] gap-4 rounded-lg bg-white p-4 text-sm shadow-sm ring-1 ring-slate-200 sm:grid-cols-3">
        <div className="min-w-0">
          <dt className="font-medium text-slate-600">Queue ID</dt>
          <dd className="mt-1">{q ? <CopyId id={q.id} what="the queue" /> : '…'}</dd>
        </div>
        <div>
          <dt className="font-medium text-slate-600">Retention</dt>
          <dd className="mt-1 text-slate-800">{q ? retentionWords(q.retentionSeconds) : '…'}</dd>
        </div>
        <div>
          <dt className="font-medium text-slate-600">Created</dt>
          <dd className="mt-1 text-slate-800">{q ? <LocalDate iso={q.createdAt} exact /> : '…'}</dd>
        </div>
      </dl>
      {q && (
        <div className="mt-4">
          <QueueCode orgId={orgId} projectId={projectId} queueSlug={q.slug} publish={publish} readQueue={readQueue} />
        </div>
      )}

      <section aria-labelledby="queue-subscriptions-title" className="mt-8">
        <h2 id="queue-subscriptions-title" className="mb-3 text-lg font-semibold text-slate-900">
          Subscriptions
        </h2>
        {subscriptions.isPending ? (
          <TableSkeleton rows={2} columns={6} label="Loading subscriptions" />
        ) : subscriptions.isError ? (
          <ErrorState
            title="Could not load the subscriptions"
            message={subscriptions.error.message}
            onRetry={() => void subscriptions.refetch()}
          />
        ) : items.length === 0 ? (
          <EmptyState title="No subscriptions yet">
            A message published now reaches no one: each subscription receives what is published after it was made.
            {may('queues.subscriptions.create') && ' Choose New subscription to deliver to your endpoint.'}
          </EmptyState>
        ) : (
          <QueueSubscriptions orgId={orgId} projectId={projectId} items={items} backlogOf={(id) => backlogs.get(id)} />
        )}
      </section>

      {q && (
        <>
          <PublishDialog
            orgId={orgId}
            projectId={projectId}
            queue={q}
            subscriptions={items.length}
            open={publishing}
            onOpenChange={setPublishing}
            onPublished={onPublished}
          />
          <NewSubscriptionDialog
            orgId={orgId}
            projectId={projectId}
            queue={q}
            open={subscribing}
            onOpenChange={setSubscribing}
            onCreated={onCreated}
          />
          <SecretRevealDialog
            title="The subscription's signing secret"
            label="Signing secret"
            description="Your receiver checks each delivery's signature with it (Standard Webhooks). Copy it now: it will never be shown again."
            secret={secret}
            onClose={() => setSecret(null)}
            returnFocus={() => subscribeButton.current}
          />
          <ConfirmDialog
            open={deleting}
            onOpenChange={setDeleting}
            title={`Delete the queue ${q.name}?`}
            description={
              <>
                <p>Its messages are deleted with it, and publishing to it fails from then on.</p>
                {items.length > 0 && (
                  <p>
                    {items.length === 1 ? 'A subscription reads' : `${items.length} subscriptions read`} from it: a
                    queue in use is not deleted.
                  </p>
                )}
              </>
            }
            confirmLabel="Delete queue"
            onConfirm={async () => {
              const outcome = await runMutation(() => remove.mutateAsync(q.id), {
                success: `Deleted the queue ${q.name}.`,
                failure: `Could not delete the queue ${q.name}`,
              });
              if (outcome.ok) router.push(`/orgs/${orgId}/projects/${projectId}/queues`);
              else if (outcome.error instanceof ApiRequestError && outcome.error.code === 'queue_in_use')
                setRefusal(outcome.error.message);
              return true;
            }}
          />
        </>
      )}
    </>
  );
}
