import { getAlert } from '@/lib/alerts/list-service';
import { getAlertOp } from '@/lib/alerts/operations';
import { notFound } from '@/lib/errors';
import { otherMethods } from '@/lib/pipeline/methods';
import { json, route } from '@/lib/pipeline/route';

export const GET = route(getAlertOp, async ({ params }) => {
  const alert = await getAlert({ organizationId: params.orgId, projectId: params.projectId }, params.fingerprint);
  if (!alert) throw notFound('Alert not found.');
  return json(alert);
});

export const { POST, PUT, PATCH, DELETE } = otherMethods(getAlertOp);
