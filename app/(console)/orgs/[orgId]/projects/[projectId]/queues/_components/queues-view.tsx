'use client';

import Link from 'next/link';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { DataTable } from '@/components/ui/data-table';
import { whenOpened } from '@/components/ui/opened-once';
import { EmptyState, PageHeader, ReadOnlyNote } from '@/components/ui/states';
import { ListStates } from '@/components/console/list-states';
import { LoadMore } from '@/components/console/load-more';
import { LocalDate } from '@/components/console/time';
import { hasGrant, usePermissions } from '@/lib/access/queries';
import { useQueues } from '@/lib/queues/queries';
import { useProjectSubscriptions, useSubscriptionActivities } from '@/lib/subscriptions/queries';
import { figuresByQueue } from './queue-figures';
import { Age, count, retentionWords } from './queue-words';

// The dialog and its form (zod) load at the first sign of a person on the page, not with the list.
const NewQueueDialog = whenOpened(
  () => import('./new-queue-dialog'),
  (m) => m.NewQueueDialog,
  (props) => props.open,
  { early: true },
);

const cell = 'px-4 py-3 align-top text-sm text-slate-800';

/** The project's queues: each with its subscriptions, the messages ready in them and the oldest one's age. */
export function QueuesView({ orgId, projectId }: { orgId: string; projectId: string }) {
  const queues = useQueues(orgId, projectId);
  const subscriptions = useProjectSubscriptions(orgId, projectId);
  const permissions = usePermissions(orgId);
  const canCreate = hasGrant(permissions.data, 'queues.queues.create', projectId);
  const [creating, setCreating] = useState(false);

  const shown = new Set(queues.items.map((q) => q.id));
  const subs = subscriptions.items.filter((s) => shown.has(s.queueId));
  const activities = useSubscriptionActivities(
    orgId,
    projectId,
    subs.map((s) => s.id),
  );
  const backlogs = new Map(subs.map((s, i) => [s.id, activities[i]?.data?.backlog]));
  const figures = figuresByQueue(subs, (id) => backlogs.get(id));
  const figuresKnown = !subscriptions.isPending && !subscriptions.hasNextPage;

  const newQueue = canCreate && <Button onClick={() => setCreating(true)}>New queue</Button>;

  return (
    <>
      <PageHeader
        title="Queues"
        description="Where applications publish messages. Each subscription of a queue delivers every message published after it was made to its own target."
        actions={newQueue}
      />
      {permissions.isSuccess && !canCreate && (
        <ReadOnlyNote>
          Read-only: making queues needs the <code className="font-mono text-xs">queues.queues.create</code> permission
          on this project.
        </ReadOnlyNote>
      )}
      <ListStates
        list={queues}
        loading="Loading queues"
        rows={3}
        columns={6}
        errorTitle="Could not load queues"
        empty={
          <EmptyState title="No queues yet">
            {canCreate
              ? 'Choose New queue to make one, add a subscription that delivers to your endpoint, then publish a test message to it.'
              : 'Someone with the queues.queues.create permission on this project can make one.'}
          </EmptyState>
        }
      >
        <DataTable
          caption="Queues of this project"
          columns={['Queue', 'Subscriptions', 'Ready', 'Oldest ready', 'Retention', 'Created']}
          minWidth="48rem"
          stacked
          footer={<LoadMore list={queues} />}
        >
          {queues.items.map((queue) => {
            const f =
              figures.get(queue.id) ?? (figuresKnown ? { subscriptions: 0, ready: 0, oldestReadyAt: null } : null);
            return (
              <tr key={queue.id} data-testid={`queue-${queue.name}`}>
                <th scope="row" className={`${cell} text-left font-normal`}>
                  <Link
                    href={`/orgs/${orgId}/projects/${projectId}/queues/${queue.id}`}
                    className="font-semibold text-indigo-700 hover:underline"
                  >
                    {queue.name}
                  </Link>
                  <p className="mt-1 font-mono text-xs text-slate-600">{queue.slug}</p>
                </th>
                <td data-label="Subscriptions" className={`${cell} tabular-nums`}>
                  <Figure value={f?.subscriptions} />
                </td>
                <td data-label="Ready" className={`${cell} tabular-nums`}>
                  <Figure value={f?.ready} />
                </td>
                <td data-label="Oldest ready" className={cell}>
                  {f?.oldestReadyAt === undefined ? (
                    <Figure value={undefined} />
                  ) : f.oldestReadyAt === null ? (
                    <span className="text-slate-600">None waiting</span>
                  ) : (
                    <Age iso={f.oldestReadyAt} />
                  )}
                </td>
                <td data-label="Retention" className={cell}>
                  {retentionWords(queue.retentionSeconds)}
                </td>
                <td data-label="Created" className={cell}>
                  <LocalDate iso={queue.createdAt} exact />
                </td>
              </tr>
            );
          })}
        </DataTable>
      </ListStates>
      <NewQueueDialog orgId={orgId} projectId={projectId} open={creating} onOpenChange={setCreating} />
    </>
  );
}

/** A count, or a placeholder of the same height while it is read. */
function Figure({ value }: { value: number | undefined }) {
  if (value === undefined)
    return (
      <span className="inline-block h-4 w-8 animate-pulse rounded bg-slate-200 align-middle">
        <span className="sr-only">Loading</span>
      </span>
    );
  return <>{count(value)}</>;
}
