import { otherMethods } from '@/lib/pipeline/methods';
import { noContent, route } from '@/lib/pipeline/route';
import { discardDeadLetterOp } from '@/lib/subscriptions/activity-operations';
import { discardDeadLetter } from '@/lib/subscriptions/dead-letter-service';

export const DELETE = route(discardDeadLetterOp, async ({ params, audit }) => {
  const scope = { organizationId: params.orgId, projectId: params.projectId };
  await discardDeadLetter(scope, params.subscriptionId, params.messageId, audit);
  return noContent();
});

export const { GET, POST, PUT, PATCH } = otherMethods(discardDeadLetterOp);
