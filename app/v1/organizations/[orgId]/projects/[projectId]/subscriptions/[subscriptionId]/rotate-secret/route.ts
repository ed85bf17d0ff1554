import { otherMethods } from '@/lib/pipeline/methods';
import { json, route } from '@/lib/pipeline/route';
import { rotateSubscriptionSecretOp } from '@/lib/subscriptions/operations';
import { rotateSubscriptionSecret } from '@/lib/subscriptions/lifecycle-service';

export const POST = route(rotateSubscriptionSecretOp, async ({ params, audit }) =>
  json(
    await rotateSubscriptionSecret(
      { organizationId: params.orgId, projectId: params.projectId },
      params.subscriptionId,
      audit,
    ),
    { headers: { 'cache-control': 'no-store' } },
  ),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods(rotateSubscriptionSecretOp);
