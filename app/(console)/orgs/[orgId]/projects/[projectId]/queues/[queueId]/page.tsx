import type { Metadata } from 'next';
import { CODE_ACTS } from '@/server/console/code-acts';
import { Prefetched } from '@/server/console/prefetched';
import { queueRead, subscriptionsWithBacklogs } from '../_server/reads';
import { QueueView } from './_components/queue-view';

export const metadata: Metadata = { title: 'Queue' };

export default async function Page({
  params,
}: {
  params: Promise<{ orgId: string; projectId: string; queueId: string }>;
}) {
  const { orgId, projectId, queueId } = await params;
  const project = { orgId, projectId };
  // The queue, its subscriptions and their backlogs come with the page; the browser then refreshes the backlogs.
  const reads = await subscriptionsWithBacklogs(project, (sub) => sub.queueId === queueId);
  return (
    <Prefetched reads={[queueRead(project, queueId), ...reads]}>
      <QueueView
        orgId={orgId}
        projectId={projectId}
        queueId={queueId}
        publish={CODE_ACTS.publish}
        readQueue={CODE_ACTS.readQueue}
      />
    </Prefetched>
  );
}
