import { json, route } from '@/lib/pipeline/route';
import { getSubscriptionOp, updateSubscriptionOp } from '@/lib/subscriptions/operations';
import { getSubscription, updateSubscription } from '@/lib/subscriptions/service';
import { otherMethods } from '@/lib/pipeline/methods';

export const GET = route(getSubscriptionOp, async ({ params }) =>
  json(await getSubscription({ organizationId: params.orgId, projectId: params.projectId }, params.subscriptionId)),
);

export const PATCH = route(updateSubscriptionOp, async ({ params, body, audit }) =>
  json(
    await updateSubscription(
      { organizationId: params.orgId, projectId: params.projectId },
      params.subscriptionId,
      body,
      audit,
    ),
  ),
);

export const { POST, PUT, DELETE } = otherMethods(getSubscriptionOp, updateSubscriptionOp);
