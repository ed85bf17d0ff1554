import { json, route } from '@/lib/pipeline/route';
import { publishMessagesOp } from '@/lib/queues/operations';
import { publishMessages } from '@/lib/queues/publish-service';
import { otherMethods } from '@/lib/pipeline/methods';

export const POST = route(publishMessagesOp, async ({ params, body }) =>
  json(
    await publishMessages({ organizationId: params.orgId, projectId: params.projectId }, params.queueId, body.messages),
    { status: 202 },
  ),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods(publishMessagesOp);
