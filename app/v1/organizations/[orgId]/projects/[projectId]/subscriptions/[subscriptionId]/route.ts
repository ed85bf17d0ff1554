import { json, noContent, route } from '@/lib/pipeline/route';
import { deleteSubscriptionOp, getSubscriptionOp, updateSubscriptionOp } from '@/lib/subscriptions/operations';
import { deleteSubscription } from '@/lib/subscriptions/lifecycle-service';
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

export const DELETE = route(deleteSubscriptionOp, async ({ params, audit }) => {
  await deleteSubscription({ organizationId: params.orgId, projectId: params.projectId }, params.subscriptionId, audit);
  return noContent();
});

export const { POST, PUT } = otherMethods(getSubscriptionOp, updateSubscriptionOp, deleteSubscriptionOp);
