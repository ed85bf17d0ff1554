import { json, route } from '@/lib/http/route';
import { deviceCodeGone, requireConsoleSession } from '@/lib/oauth/http';
import { denyDeviceAuthorizationOp } from '@/lib/oauth/operations';
import { decideDeviceAuthorization } from '@/lib/oauth/service';

export const POST = route(denyDeviceAuthorizationOp, async ({ params, principal, audit }) => {
  requireConsoleSession(principal);
  const authorization = await decideDeviceAuthorization(params.userCode, principal.id, 'denied', audit);
  if (!authorization) throw deviceCodeGone();
  return json(authorization);
});
