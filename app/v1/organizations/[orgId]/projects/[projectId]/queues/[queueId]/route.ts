import { json, noContent, route } from '@/lib/pipeline/route';
import { deleteQueueOp, getQueueOp, updateQueueOp } from '@/lib/queues/operations';
import { deleteQueue, getQueue, updateQueue } from '@/lib/queues/service';
import { otherMethods } from '@/lib/pipeline/methods';

type Path = { orgId: string; projectId: string };
const scope = (p: Path) => ({ organizationId: p.orgId, projectId: p.projectId });

export const GET = route(getQueueOp, async ({ params }) => json(await getQueue(scope(params), params.queueId)));

export const PATCH = route(updateQueueOp, async ({ params, body, audit }) =>
  json(await updateQueue(scope(params), params.queueId, body, audit)),
);

export const DELETE = route(deleteQueueOp, async ({ params, audit }) => {
  await deleteQueue(scope(params), params.queueId, audit);
  return noContent();
});

export const { POST, PUT } = otherMethods(getQueueOp, updateQueueOp, deleteQueueOp);
