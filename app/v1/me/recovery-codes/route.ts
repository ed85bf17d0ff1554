import { otherMethods } from '@/lib/pipeline/methods';
import { json, route } from '@/lib/pipeline/route';
import { regenerateRecoveryCodesOp } from '@/lib/second-factor/operations';
import { regenerateRecoveryCodes } from '@/lib/second-factor/service';

export const POST = route(regenerateRecoveryCodesOp, async ({ principal, audit }) =>
  json({ recoveryCodes: await regenerateRecoveryCodes(principal, audit) }),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods(regenerateRecoveryCodesOp);
