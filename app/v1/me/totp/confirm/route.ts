import { otherMethods } from '@/lib/pipeline/methods';
import { json, route } from '@/lib/pipeline/route';
import { confirmTotpOp } from '@/lib/second-factor/operations';
import { confirmTotp } from '@/lib/second-factor/totp-service';

export const POST = route(confirmTotpOp, async ({ principal, body, audit }) =>
  json({ recoveryCodes: await confirmTotp(principal, body.code, audit) }),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods(confirmTotpOp);
