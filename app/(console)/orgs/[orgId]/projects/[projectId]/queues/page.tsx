import type { Metadata } from 'next';
import type { Page as ListPage } from '@/lib/http/pagination';
import type { Queue } from '@/lib/queues/schema';
import { Prefetched } from '@/server/console/prefetched';
import { serverRead } from '@/server/console/prefetch';
import { queuesRead, subscriptionsWithBacklogs } from './_server/reads';
import { QueuesView } from './_components/queues-view';

export const metadata: Metadata = { title: 'Queues' };

export default async function Page({ params }: { params: Promise<{ orgId: string; projectId: string }> }) {
  const { orgId, projectId } = await params;
  const project = { orgId, projectId };
  // The first page of queues and each one's figures (its subscriptions and their backlogs) come with the page.
  const queues = await serverRead<ListPage<Queue>>(queuesRead(project));
  const shown = new Set(queues?.items.map((q) => q.id));
  const reads = await subscriptionsWithBacklogs(project, (sub) => shown.has(sub.queueId));
  return (
    <Prefetched reads={[queuesRead(project), ...reads]}>
      <QueuesView orgId={orgId} projectId={projectId} />
    </Prefetched>
  );
}
