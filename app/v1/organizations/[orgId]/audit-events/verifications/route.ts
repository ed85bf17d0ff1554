import { startAuditVerificationOp } from '@/lib/audit-log/operations';
import { startAuditVerification } from '@/lib/audit/verification-service';
import { otherMethods } from '@/lib/pipeline/methods';
import { json, route } from '@/lib/pipeline/route';

export const POST = route(startAuditVerificationOp, async ({ params }) =>
  json(await startAuditVerification(params.orgId), { status: 202 }),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods(startAuditVerificationOp);
