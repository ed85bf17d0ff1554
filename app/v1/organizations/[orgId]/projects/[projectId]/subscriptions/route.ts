import { json, route } from '@/lib/http/route';
import { listSubscriptionsOp } from '@/lib/subscriptions/operations';
import { listSubscriptions } from '@/lib/subscriptions/service';
import { otherMethods } from '@/lib/http/methods';

export const GET = route(listSubscriptionsOp, async ({ params, query }) =>
  json(await listSubscriptions({ organizationId: params.orgId, projectId: params.projectId }, query)),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(listSubscriptionsOp);
