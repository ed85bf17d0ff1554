import { json, route } from '@/lib/pipeline/route';
import { listSubscriptionsOp } from '@/lib/subscriptions/operations';
import { listSubscriptions } from '@/lib/subscriptions/service';
import { otherMethods } from '@/lib/pipeline/methods';

export const GET = route(listSubscriptionsOp, async ({ params, query }) =>
  json(await listSubscriptions({ organizationId: params.orgId, projectId: params.projectId }, query)),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(listSubscriptionsOp);
