import { listAuditEventsOp } from '@/lib/audit/operations';
import { listAuditEvents } from '@/lib/audit/service';
import { otherMethods } from '@/lib/http/methods';
import { json, route } from '@/lib/http/route';

export const GET = route(listAuditEventsOp, async ({ params, query }) =>
  json(await listAuditEvents(params.orgId, query)),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(listAuditEventsOp);
