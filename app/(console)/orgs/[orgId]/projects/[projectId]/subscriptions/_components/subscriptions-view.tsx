'use client';

import { useState } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState, ErrorState, PageHeader, TableSkeleton } from '@/components/ui/states';
import { hasGrant, usePermissions } from '@/lib/access/queries';
import { ApiRequestError } from '@/lib/api-client';
import type { Subscription } from '@/lib/subscriptions/schema';
import { useSetSubscriptionState, useSubscriptions } from '@/lib/subscriptions/queries';
import { SubscriptionDialog } from './subscription-dialog';
import { SubscriptionsTable } from './subscriptions-table';

export function SubscriptionsView({ orgId, projectId }: { orgId: string; projectId: string }) {
  const subscriptions = useSubscriptions(orgId, projectId);
  const permissions = usePermissions(orgId);
  const [openId, setOpenId] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [toggling, setToggling] = useState<Subscription | null>(null);
  const setState = useSetSubscriptionState(orgId, projectId);
  const pausing = toggling?.state === 'active';

  const confirmToggle = async () => {
    if (!toggling) return;
    try {
      const changed = await setState.mutateAsync({ id: toggling.id, action: pausing ? 'pause' : 'resume' });
      setToggling(null);
      setSaved(`${changed.state === 'paused' ? 'Paused' : 'Resumed'} ${changed.slug}.`);
    } catch {
      // The dialog stays open and shows the error; the mutation keeps it.
    }
  };

  const canEdit = hasGrant(permissions.data, 'queues.subscriptions.update', projectId) ?? false;
  const open = subscriptions.data?.find((s) => s.id === openId) ?? null;

  return (
    <>
      <PageHeader
        title="Subscriptions"
        description="Deliveries from a queue to a target: how many messages per batch, how many batches at once, and where they go."
      />
      {permissions.isSuccess && !canEdit && (
        <p className="mb-4 rounded-md bg-slate-100 px-3 py-2 text-sm text-slate-700">
          Read-only: changing subscriptions needs the{' '}
          <code className="font-mono text-xs">queues.subscriptions.update</code> permission on this project.
        </p>
      )}
      {permissions.isError && (
        <p className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800">
          Could not check your permissions, so this page is read-only for now.
        </p>
      )}
      <p
        role="status"
        aria-live="polite"
        className={saved ? 'mb-4 rounded-md bg-green-50 px-3 py-2 text-sm text-green-800' : 'sr-only'}
      >
        {saved}
      </p>
      {subscriptions.isPending ? (
        <TableSkeleton rows={3} columns={7} label="Loading subscriptions" />
      ) : subscriptions.isError ? (
        <ErrorState
          title="Could not load subscriptions"
          message={subscriptions.error.message}
          onRetry={() => subscriptions.refetch()}
        />
      ) : subscriptions.data.length === 0 ? (
        <EmptyState title="No subscriptions">This project has no subscriptions yet.</EmptyState>
      ) : (
        <SubscriptionsTable
          items={subscriptions.data}
          canEdit={canEdit}
          permissionKnown={!permissions.isPending}
          onOpen={(sub) => {
            setSaved(null);
            setOpenId(sub.id);
          }}
          onToggleState={(sub) => {
            setSaved(null);
            setState.reset();
            setToggling(sub);
          }}
        />
      )}
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
        pending={setState.isPending}
        error={
          setState.error instanceof ApiRequestError
            ? setState.error.message
            : setState.error
              ? 'Something went wrong; try again.'
              : null
        }
        onConfirm={() => void confirmToggle()}
      />
      {open && (
        <SubscriptionDialog
          key={open.id}
          orgId={orgId}
          projectId={projectId}
          subscription={open}
          canEdit={canEdit}
          onClose={() => setOpenId(null)}
          onSaved={(slug) => {
            setOpenId(null);
            setSaved(`Saved ${slug}.`);
          }}
        />
      )}
    </>
  );
}
