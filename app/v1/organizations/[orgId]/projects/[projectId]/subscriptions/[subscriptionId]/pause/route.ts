import { auditSource } from '@/lib/audit/source';
import { json, route } from '@/lib/http/route';
import { pauseSubscriptionOp } from '@/lib/subscriptions/operations';
import { setSubscriptionState } from '@/lib/subscriptions/service';

export const POST = route(pauseSubscriptionOp, async (ctx) =>
  json(
    await setSubscriptionState(
      { organizationId: ctx.params.orgId, projectId: ctx.params.projectId },
      ctx.params.subscriptionId,
      'paused',
      auditSource(ctx),
    ),
  ),
);
