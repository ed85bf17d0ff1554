import { otherMethods } from '@/lib/http/methods';
import { json, route } from '@/lib/http/route';
import { regenerateRecoveryCodesOp } from '@/lib/second-factor/operations';
import { regenerateRecoveryCodes } from '@/lib/second-factor/service';

export const POST = route(regenerateRecoveryCodesOp, async ({ principal, audit }) =>
  json({ recoveryCodes: await regenerateRecoveryCodes(principal, audit) }),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods(regenerateRecoveryCodesOp);
