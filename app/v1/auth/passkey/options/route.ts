import { ApiError } from '@/lib/errors';
import { otherMethods } from '@/lib/pipeline/methods';
import { clientAddress } from '@/lib/http/public-origin';
import { anonymousLimiter } from '@/lib/http/rate-limit';
import { json, publicRoute } from '@/lib/pipeline/route';
import { passkeySignInOptionsOp } from '@/lib/second-factor/operations';
import { passkeyRequestOptions } from '@/lib/second-factor/passkey-service';

export const POST = publicRoute(passkeySignInOptionsOp, async ({ req }) => {
  const retryAfter = await anonymousLimiter.consume(`passkey:${clientAddress(req.headers)}`);
  if (retryAfter !== null)
    throw new ApiError('too_many_requests', undefined, { headers: { 'retry-after': String(retryAfter) } });
  return json(await passkeyRequestOptions());
});

export const { GET, PUT, PATCH, DELETE } = otherMethods(passkeySignInOptionsOp);
