import { listAlerts } from '@/lib/alerts/list-service';
import { listAlertsOp } from '@/lib/alerts/operations';
import { otherMethods } from '@/lib/pipeline/methods';
import { json, route } from '@/lib/pipeline/route';
import { parseFilter } from '@/lib/silences/filter';

export const GET = route(listAlertsOp, async ({ params, query }) => {
  const filters = (query.filter ?? []).flatMap((text) => parseFilter(text) ?? []);
  return json(await listAlerts({ organizationId: params.orgId, projectId: params.projectId }, { ...query, filters }));
});

export const { POST, PUT, PATCH, DELETE } = otherMethods(listAlertsOp);
