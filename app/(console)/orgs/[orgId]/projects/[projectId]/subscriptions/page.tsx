import type { Metadata } from 'next';
import { GET as listSubscriptions } from '@/app/v1/organizations/[orgId]/projects/[projectId]/subscriptions/route';
import { Prefetched } from '@/server/console/prefetched';
import { subscriptionKeys } from '@/lib/subscriptions/keys';
import { queuesRead } from '../queues/_server/reads';
import { SubscriptionsView } from './_components/subscriptions-view';

export const metadata: Metadata = { title: 'Subscriptions' };

export default async function Page({ params }: { params: Promise<{ orgId: string; projectId: string }> }) {
  const { orgId, projectId } = await params;
  // The first page of subscriptions, and of the queues that name them, come with the page: the list is in the
  // server's HTML.
  return (
    <Prefetched
      reads={[
        {
          queryKey: subscriptionKeys.list(orgId, projectId),
          handler: listSubscriptions,
          path: `/v1/organizations/${orgId}/projects/${projectId}/subscriptions`,
          params: { orgId, projectId },
          paged: true,
        },
        queuesRead({ orgId, projectId }),
      ]}
    >
      <SubscriptionsView orgId={orgId} projectId={projectId} />
    </Prefetched>
  );
}
