import type { Metadata } from 'next';
import type { Subscription } from '@/lib/subscriptions/schema';
import { CODE_ACTS } from '@/server/console/code-acts';
import { Prefetched } from '@/server/console/prefetched';
import { serverRead } from '@/server/console/prefetch';
import { activityRead, deadLettersRead, deliveriesRead, queueRead, subscriptionRead } from '../../queues/_server/reads';
import type { SubscriptionAddress } from './_components/subscription-address';
import { SubscriptionView } from './_components/subscription-view';

export const metadata: Metadata = { title: 'Subscription' };

export default async function Page({ params }: { params: Promise<SubscriptionAddress> }) {
  const { orgId, projectId, subscriptionId } = await params;
  const project = { orgId, projectId };
  // Its status, backlog, last hour, deliveries, dead letters and queue come with the page; the browser then
  // refreshes them every few seconds while the page is visible.
  const sub = await serverRead<Subscription>(subscriptionRead(project, subscriptionId));
  return (
    <Prefetched
      reads={[
        subscriptionRead(project, subscriptionId),
        activityRead(project, subscriptionId),
        deliveriesRead(project, subscriptionId),
        deadLettersRead(project, subscriptionId),
        ...(sub ? [queueRead(project, sub.queueId)] : []),
      ]}
    >
      <SubscriptionView
        orgId={orgId}
        projectId={projectId}
        subscriptionId={subscriptionId}
        read={CODE_ACTS.readSubscription}
        activity={CODE_ACTS.subscriptionActivity}
      />
    </Prefetched>
  );
}
