import { listAuditEventsOp } from '@/lib/audit-log/operations';
import { listAuditEvents } from '@/lib/audit/service';
import { otherMethods } from '@/lib/pipeline/methods';
import { json, route } from '@/lib/pipeline/route';

export const GET = route(listAuditEventsOp, async ({ params, query }) =>
  json(await listAuditEvents(params.orgId, query)),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(listAuditEventsOp);
