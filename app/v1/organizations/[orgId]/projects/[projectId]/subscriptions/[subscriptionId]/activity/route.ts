import { otherMethods } from '@/lib/pipeline/methods';
import { json, route } from '@/lib/pipeline/route';
import { subscriptionActivityOp } from '@/lib/subscriptions/activity-operations';
import { subscriptionActivity } from '@/lib/subscriptions/activity-service';

export const GET = route(subscriptionActivityOp, async ({ params }) =>
  json(
    await subscriptionActivity({ organizationId: params.orgId, projectId: params.projectId }, params.subscriptionId),
  ),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(subscriptionActivityOp);
