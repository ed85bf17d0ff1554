import { otherMethods } from '@/lib/pipeline/methods';
import { json, route } from '@/lib/pipeline/route';
import { grantSudoOp } from '@/lib/second-factor/operations';
import { reauthenticate } from '@/lib/second-factor/reauthenticate';

export const POST = route(grantSudoOp, async ({ principal, body, req, audit }) => {
  const expiresAt = await reauthenticate(principal, body, req.headers, audit);
  return json({ sudoExpiresAt: expiresAt.toISOString() });
});

export const { GET, PUT, PATCH, DELETE } = otherMethods(grantSudoOp);
