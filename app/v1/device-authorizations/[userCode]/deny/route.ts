import { json, route } from '@/lib/pipeline/route';
import { deviceCodeGone } from '@/lib/oauth/http';
import { denyDeviceAuthorizationOp } from '@/lib/oauth/operations';
import { decideDeviceAuthorization } from '@/lib/oauth/service';
import { otherMethods } from '@/lib/pipeline/methods';

export const POST = route(denyDeviceAuthorizationOp, async ({ params, principal, audit }) => {
  const authorization = await decideDeviceAuthorization(params.userCode, principal.id, 'denied', audit);
  if (!authorization) throw deviceCodeGone();
  return json(authorization);
});

export const { GET, PUT, PATCH, DELETE } = otherMethods(denyDeviceAuthorizationOp);
