import { otherMethods } from '@/lib/pipeline/methods';
import { json, route } from '@/lib/pipeline/route';
import { redriveDeadLettersOp } from '@/lib/subscriptions/activity-operations';
import { redriveDeadLetters } from '@/lib/subscriptions/dead-letter-service';

export const POST = route(redriveDeadLettersOp, async ({ params, body, audit }) => {
  const scope = { organizationId: params.orgId, projectId: params.projectId };
  const redriven = await redriveDeadLetters(scope, params.subscriptionId, body.messageIds, audit);
  return json({ redriven }, { status: 202 });
});

export const { GET, PUT, PATCH, DELETE } = otherMethods(redriveDeadLettersOp);
