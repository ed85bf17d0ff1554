import { json, route } from '@/lib/pipeline/route';
import { createQueueOp, listQueuesOp } from '@/lib/queues/operations';
import { createQueue, listQueues } from '@/lib/queues/service';
import { otherMethods } from '@/lib/pipeline/methods';

export const GET = route(listQueuesOp, async ({ params, query }) =>
  json(await listQueues({ organizationId: params.orgId, projectId: params.projectId }, query)),
);

export const POST = route(createQueueOp, async ({ params, body, audit, req }) => {
  const queue = await createQueue({ organizationId: params.orgId, projectId: params.projectId }, body, audit);
  return json(queue, { status: 201, headers: { location: `${req.nextUrl.pathname}/${queue.id}` } });
});

export const { PUT, PATCH, DELETE } = otherMethods(listQueuesOp, createQueueOp);
