import { getAuditVerificationOp } from '@/lib/audit-log/operations';
import { getAuditVerification } from '@/lib/audit/verification-service';
import { otherMethods } from '@/lib/pipeline/methods';
import { json, route } from '@/lib/pipeline/route';

export const GET = route(getAuditVerificationOp, async ({ params }) =>
  json(await getAuditVerification(params.orgId, params.verificationId)),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(getAuditVerificationOp);
