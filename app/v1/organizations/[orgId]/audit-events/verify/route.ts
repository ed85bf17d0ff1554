import { verifyAuditEventsOp } from '@/lib/audit-log/operations';
import { verifyAuditChain } from '@/lib/audit/verify';
import { otherMethods } from '@/lib/pipeline/methods';
import { json, route } from '@/lib/pipeline/route';

export const GET = route(verifyAuditEventsOp, async ({ params }) => json(await verifyAuditChain(params.orgId)));

export const { POST, PUT, PATCH, DELETE } = otherMethods(verifyAuditEventsOp);
