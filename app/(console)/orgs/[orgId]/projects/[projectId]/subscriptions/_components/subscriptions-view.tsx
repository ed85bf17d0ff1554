'use client';

import dynamic from 'next/dynamic';
import { useState } from 'react';
import { EmptyState, PageHeader, ReadOnlyNote } from '@/components/ui/states';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ListStates } from '@/components/console/list-states';
import { LoadMore } from '@/components/console/load-more';
import { runMutation } from '@/components/console/feedback';
import { hasGrant, usePermissions } from '@/lib/access/queries';
import type { Subscription } from '@/lib/subscriptions/schema';
import { useQueues } from '@/lib/queues/queries';
import { useSetSubscriptionState, useSubscriptions } from '@/lib/subscriptions/queries';
import { SubscriptionsTable } from './subscriptions-table';

// The editor and its form load when a subscription is first opened, not with the list.
const SubscriptionDialog = dynamic(() => import('./subscription-dialog').then((m) => m.SubscriptionDialog));

export function SubscriptionsView({ orgId, projectId }: { orgId: string; projectId: string }) {
  const subscriptions = useSubscriptions(orgId, projectId);
  const queues = useQueues(orgId, projectId);
  const queueNames = new Map(queues.items.map((q) => [q.id, q.name]));
  const permissions = usePermissions(orgId);
  const [openId, setOpenId] = useState<string | null>(null);
  const [toggling, setToggling] = useState<Subscription | null>(null);
  const setState = useSetSubscriptionState(orgId, projectId);
  const pausing = toggling?.state === 'active';

  // The answer replaces the row, so its state badge follows; the toast says what happened.
  const confirmToggle = async () => {
    if (!toggling) return true;
    const outcome = await runMutation(
      () => setState.mutateAsync({ id: toggling.id, action: pausing ? 'pause' : 'resume' }),
      {
        success: (changed) => `${changed.state === 'paused' ? 'Paused' : 'Resumed'} ${changed.slug}.`,
        failure: pausing ? 'Not paused' : 'Not resumed',
      },
    );
    return outcome.ok;
  };

  const canEdit = hasGrant(permissions.data, 'queues.subscriptions.update', projectId) ?? false;
  const open = subscriptions.items.find((s) => s.id === openId) ?? null;

  return (
    <>
      <PageHeader
        title="Subscriptions"
        description="Deliveries from a queue to a target: how many messages per batch, how many batches at once, and where they go."
      />
      {permissions.isSuccess && !canEdit && (
        <ReadOnlyNote>
          Read-only: changing subscriptions needs the{' '}
          <code className="font-mono text-xs">queues.subscriptions.update</code> permission on this project.
        </ReadOnlyNote>
      )}
      {permissions.isError && (
        <p className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800">
          Could not check your permissions, so this page is read-only for now.
        </p>
      )}
      <ListStates
        list={subscriptions}
        loading="Loading subscriptions"
        rows={3}
        columns={7}
        errorTitle="Could not load subscriptions"
        empty={<EmptyState title="No subscriptions">This project has no subscriptions yet.</EmptyState>}
      >
        <SubscriptionsTable
          orgId={orgId}
          projectId={projectId}
          queueNames={queueNames}
          items={subscriptions.items}
          canEdit={canEdit}
          permissionKnown={!permissions.isPending}
          onOpen={(sub) => setOpenId(sub.id)}
          onToggleState={setToggling}
          footer={<LoadMore list={subscriptions} />}
        />
      </ListStates>
      <ConfirmDialog
        open={toggling !== null}
        onOpenChange={(isOpen) => !isOpen && setToggling(null)}
        title={`${pausing ? 'Pause' : 'Resume'} ${toggling?.slug ?? ''}?`}
        description={
          pausing ? (
            <p>Deliveries stop until you resume it; messages wait in the queue meanwhile.</p>
          ) : (
            <p>Deliveries start again, beginning with the messages that waited in the queue.</p>
          )
        }
        confirmLabel={pausing ? 'Pause subscription' : 'Resume subscription'}
        tone={pausing ? 'danger' : 'primary'}
        onConfirm={confirmToggle}
      />
      {open && (
        <SubscriptionDialog
          key={open.id}
          orgId={orgId}
          projectId={projectId}
          subscription={open}
          canEdit={canEdit}
          onClose={() => setOpenId(null)}
        />
      )}
    </>
  );
}
