import { noContent } from '@/lib/pipeline/route';
import { openRoute } from '@/lib/pipeline/open-route';
import { otherMethods } from '@/lib/pipeline/methods';
import { setPasswordOp } from '@/lib/onboarding/operations';
import { setPasswordWithToken } from '@/lib/onboarding/password-service';

export const POST = openRoute(setPasswordOp, async ({ body }) => {
  await setPasswordWithToken(body);
  return noContent();
});

export const { GET, PUT, PATCH, DELETE } = otherMethods(setPasswordOp);
