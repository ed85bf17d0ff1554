import { json, route } from '@/lib/pipeline/route';
import { createSubscriptionOp, listSubscriptionsOp } from '@/lib/subscriptions/operations';
import { createSubscription } from '@/lib/subscriptions/lifecycle-service';
import { listSubscriptions } from '@/lib/subscriptions/service';
import { otherMethods } from '@/lib/pipeline/methods';

export const GET = route(listSubscriptionsOp, async ({ params, query }) =>
  json(await listSubscriptions({ organizationId: params.orgId, projectId: params.projectId }, query)),
);

export const POST = route(createSubscriptionOp, async ({ params, body, audit }) =>
  json(await createSubscription({ organizationId: params.orgId, projectId: params.projectId }, body, audit), {
    status: 201,
    headers: { 'cache-control': 'no-store' },
  }),
);

export const { PUT, PATCH, DELETE } = otherMethods(listSubscriptionsOp, createSubscriptionOp);
