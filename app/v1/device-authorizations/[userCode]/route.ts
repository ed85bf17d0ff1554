import { json, route } from '@/lib/pipeline/route';
import { deviceCodeGone } from '@/lib/oauth/http';
import { getDeviceAuthorizationOp } from '@/lib/oauth/operations';
import { findPendingDeviceAuthorization } from '@/lib/oauth/service';
import { otherMethods } from '@/lib/pipeline/methods';

export const GET = route(getDeviceAuthorizationOp, async ({ params }) => {
  const authorization = await findPendingDeviceAuthorization(params.userCode);
  if (!authorization) throw deviceCodeGone();
  return json(authorization);
});

export const { POST, PUT, PATCH, DELETE } = otherMethods(getDeviceAuthorizationOp);
