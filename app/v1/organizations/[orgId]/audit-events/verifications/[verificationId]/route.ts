import { getAuditVerificationOp } from '@/lib/audit/operations';
import { getAuditVerification } from '@/lib/audit/verification-service';
import { otherMethods } from '@/lib/http/methods';
import { json, route } from '@/lib/http/route';

export const GET = route(getAuditVerificationOp, async ({ params }) =>
  json(await getAuditVerification(params.orgId, params.verificationId)),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(getAuditVerificationOp);
