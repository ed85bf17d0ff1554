'use client';

import { useState } from 'react';
import { EmptyState, ErrorState, PageHeader, ReadOnlyNote, TableSkeleton } from '@/components/ui/states';
import { LoadMore } from '@/components/console/load-more';
import { hasGrant, usePermissions } from '@/lib/access/queries';
import { useSubscriptions } from '@/lib/subscriptions/queries';
import { SubscriptionDialog } from './subscription-dialog';
import { SubscriptionsTable } from './subscriptions-table';

export function SubscriptionsView({ orgId, projectId }: { orgId: string; projectId: string }) {
  const subscriptions = useSubscriptions(orgId, projectId);
  const permissions = usePermissions(orgId);
  const [openId, setOpenId] = useState<string | null>(null);

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
      {subscriptions.isPending ? (
        <TableSkeleton rows={3} columns={7} label="Loading subscriptions" />
      ) : subscriptions.isError ? (
        <ErrorState
          title="Could not load subscriptions"
          message={subscriptions.error.message}
          onRetry={() => subscriptions.refetch()}
        />
      ) : subscriptions.items.length === 0 ? (
        <EmptyState title="No subscriptions">This project has no subscriptions yet.</EmptyState>
      ) : (
        <SubscriptionsTable
          items={subscriptions.items}
          canEdit={canEdit}
          permissionKnown={!permissions.isPending}
          onOpen={(sub) => setOpenId(sub.id)}
          footer={<LoadMore list={subscriptions} />}
        />
      )}
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
