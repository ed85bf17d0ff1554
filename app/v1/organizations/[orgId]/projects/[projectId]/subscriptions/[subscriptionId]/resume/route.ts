import { auditSource } from '@/lib/audit/source';
import { json, route } from '@/lib/http/route';
import { resumeSubscriptionOp } from '@/lib/subscriptions/operations';
import { setSubscriptionState } from '@/lib/subscriptions/service';

export const POST = route(resumeSubscriptionOp, async (ctx) =>
  json(
    await setSubscriptionState(
      { organizationId: ctx.params.orgId, projectId: ctx.params.projectId },
      ctx.params.subscriptionId,
      'active',
      auditSource(ctx),
    ),
  ),
);
