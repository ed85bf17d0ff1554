import { json, route } from '@/lib/http/route';
import { deviceCodeGone, requireConsoleSession } from '@/lib/oauth/http';
import { approveDeviceAuthorizationOp } from '@/lib/oauth/operations';
import { decideDeviceAuthorization } from '@/lib/oauth/service';

export const POST = route(approveDeviceAuthorizationOp, async ({ params, principal, audit }) => {
  requireConsoleSession(principal);
  const authorization = await decideDeviceAuthorization(params.userCode, principal.id, 'approved', audit);
  if (!authorization) throw deviceCodeGone();
  return json(authorization);
});
