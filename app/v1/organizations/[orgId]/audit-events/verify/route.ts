import { verifyAuditEventsOp } from '@/lib/audit/operations';
import { verifyAuditChain } from '@/lib/audit/verify';
import { otherMethods } from '@/lib/http/methods';
import { json, route } from '@/lib/http/route';

export const GET = route(verifyAuditEventsOp, async ({ params }) => json(await verifyAuditChain(params.orgId)));

export const { POST, PUT, PATCH, DELETE } = otherMethods(verifyAuditEventsOp);
