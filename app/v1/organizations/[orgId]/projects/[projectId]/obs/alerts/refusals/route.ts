import { listAlertRefusalsOp } from '@/lib/alerts/operations';
import { listRefusals } from '@/lib/alerts/refusals-service';
import { otherMethods } from '@/lib/pipeline/methods';
import { json, route } from '@/lib/pipeline/route';

export const GET = route(listAlertRefusalsOp, async ({ params }) =>
  json(await listRefusals({ organizationId: params.orgId, projectId: params.projectId })),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(listAlertRefusalsOp);
