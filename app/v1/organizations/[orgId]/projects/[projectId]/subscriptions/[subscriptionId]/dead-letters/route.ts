import { otherMethods } from '@/lib/pipeline/methods';
import { json, route } from '@/lib/pipeline/route';
import { listDeadLettersOp } from '@/lib/subscriptions/activity-operations';
import { listDeadLetters } from '@/lib/subscriptions/dead-letter-service';

export const GET = route(listDeadLettersOp, async ({ params, query }) =>
  json(
    await listDeadLetters({ organizationId: params.orgId, projectId: params.projectId }, params.subscriptionId, query),
  ),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(listDeadLettersOp);
