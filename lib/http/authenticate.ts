import { getToken } from 'next-auth/jwt';
import type { NextRequest } from 'next/server';
import { KEY_PREFIX } from '../auth/api-key-format';
import { sessionClaims } from '../auth/next-auth';
import type { Principal } from '../auth/principal';
import { principalForApiKey, principalForOAuthToken, principalForSession } from '../auth/service';
import { recordApiKeyUse } from '../auth/last-used';
import { ApiError } from './errors';
import { authFailureLimiter } from './rate-limit';
import { clientAddress } from './public-origin';

/**
 * The caller, by the first scheme present: `Authorization: Bearer svc_…` (API key), any other bearer
 * (OAuth access token), or the next-auth session cookie. Null when it does not check out.
 */
export async function authenticate(req: NextRequest): Promise<Principal | null> {
  const authorization = req.headers.get('authorization');
  if (authorization !== null) {
    const match = /^Bearer ([\x21-\x7e]+)$/i.exec(authorization.trim());
    if (!match) return null;
    const token = match[1];
    if (token.startsWith(KEY_PREFIX)) {
      const principal = await principalForApiKey(token);
      if (principal?.apiKeyId) recordApiKeyUse(principal.apiKeyId);
      return principal;
    }
    return principalForOAuthToken(token);
  }
  const secret = process.env.NEXTAUTH_SECRET;
  if (!secret) return null;
  const claims = sessionClaims(await getToken({ req, secret }));
  return claims ? principalForSession(claims.userId, claims.sessionVersion, claims.sessionId) : null;
}

/**
 * The error for a request whose credential did not check out: 401, or 429 once its client address has
 * failed too often. Only failures are counted, so valid callers behind the same address are never slowed.
 */
export async function authenticationFailure(headers: Headers): Promise<ApiError> {
  const retryAfter = await authFailureLimiter.consume(clientAddress(headers));
  if (retryAfter === null) return new ApiError('unauthenticated');
  return new ApiError('too_many_requests', 'Too many failed authentication attempts from this address.', {
    headers: { 'retry-after': String(retryAfter) },
  });
}
