import { otherMethods } from '@/lib/pipeline/methods';
import { json, route } from '@/lib/pipeline/route';
import { listSubscriptionDeliveriesOp } from '@/lib/subscriptions/activity-operations';
import { listSubscriptionDeliveries } from '@/lib/subscriptions/activity-service';

export const GET = route(listSubscriptionDeliveriesOp, async ({ params, query }) =>
  json(
    await listSubscriptionDeliveries(
      { organizationId: params.orgId, projectId: params.projectId },
      params.subscriptionId,
      query,
    ),
  ),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(listSubscriptionDeliveriesOp);
