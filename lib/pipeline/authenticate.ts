import { getToken } from 'next-auth/jwt';
import type { NextRequest } from 'next/server';
import { KEY_PREFIX } from '../auth/api-key-format';
import { keyAllowsAddress } from '../auth/key-scope';
import { sessionClaims } from '../auth/next-auth';
import { authCacheGeneration } from '../auth/cache';
import { applyAuthEpoch, validateAuthCaches, type EpochCheck } from '../auth/epoch';
import { principalKey, type Principal } from '../auth/principal';
import { principalForApiKey, principalForOAuthToken, principalForSession } from '../auth/service';
import { recordApiKeyUse } from '../auth/last-used';
import { ApiError } from '../errors';
import { apiLimiter, authFailureLimiter } from '../http/rate-limit';
import { clientAddress } from '../http/public-origin';
import { settings } from '../settings/settings';

/** The credential a request presents, by the first scheme present; null when there is none that could check out. */
export type Credential =
  | { scheme: 'api-key' | 'oauth'; token: string }
  | { scheme: 'session'; userId: string; sessionVersion: number; sessionId: string };

const tokenCredential = (token: string): Credential | null =>
  /^[\x21-\x7e]+$/.test(token) ? { scheme: token.startsWith(KEY_PREFIX) ? 'api-key' : 'oauth', token } : null;

function bearerCredential(authorization: string): Credential | null {
  const match = /^Bearer (\S+)$/i.exec(authorization.trim());
  return match ? tokenCredential(match[1]) : null;
}

/**
 * The `Authorization` header alone, as Bearer or as Basic with the token as the password (any user name, as
 * Grafana's data source sends it). For protocols that take no cookie, so a browser's session never counts.
 */
export async function headerCredential(req: NextRequest): Promise<Credential | null> {
  const authorization = req.headers.get('authorization');
  if (authorization === null) return null;
  const basic = /^Basic ([A-Za-z0-9+/]+={0,2})$/i.exec(authorization.trim());
  if (!basic) return bearerCredential(authorization);
  const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? null : tokenCredential(decoded.slice(colon + 1));
}

async function credentialOf(req: NextRequest): Promise<Credential | null> {
  const authorization = req.headers.get('authorization');
  if (authorization !== null) return bearerCredential(authorization);
  const secret = settings().NEXTAUTH_SECRET;
  if (!secret) return null;
  const claims = sessionClaims(await getToken({ req, secret }));
  return claims && { scheme: 'session', ...claims };
}

/**
 * The principal behind `Authorization: Bearer svc_…` (API key), any other bearer (OAuth access token), or the
 * next-auth session cookie. Null when it does not check out.
 */
function principalFor(credential: Credential, epoch: EpochCheck): Promise<Principal | null> {
  switch (credential.scheme) {
    case 'api-key':
      return principalForApiKey(credential.token, new Date(), epoch);
    case 'oauth':
      return principalForOAuthToken(credential.token, new Date(), epoch);
    case 'session':
      return principalForSession(credential.userId, credential.sessionVersion, credential.sessionId, epoch);
  }
}

/**
 * The caller of an authenticated /v1 request and its rate-limit verdict: 401 first, then the verdict for the
 * route to answer 429 with. The principal is looked up in the authentication caches without reading the auth
 * epoch first: on PostgreSQL the upsert that takes the caller's rate-limit point reads it in the same round trip
 * (lib/http/rate-limit.ts), issued after the request arrived as a read of its own would be. If applying it (or
 * anything else meanwhile) dropped the caches, what the lookup found may predate a revocation that another
 * instance already confirmed, so the caller is looked up again, now in the database. Where the store made no
 * such read (in memory, or a key blocked in memory) the epoch is read on its own, as before.
 */
export async function admitCaller(
  req: NextRequest,
  readCredential: (req: NextRequest) => Promise<Credential | null> = credentialOf,
): Promise<{ principal: Principal; retryAfter: number | null }> {
  const credential = await readCredential(req);
  const generation = authCacheGeneration();
  let principal = credential && (await principalFor(credential, 'deferred'));
  if (!credential || !principal) throw await authenticationFailure(req.headers);
  const { retryAfter, read } = await apiLimiter.take(principalKey(principal));
  if (read === undefined) await validateAuthCaches();
  else applyAuthEpoch(Number(read));
  if (authCacheGeneration() !== generation) {
    principal = await principalFor(credential, 'deferred');
    if (!principal) throw await authenticationFailure(req.headers);
  }
  if (principal.apiKeyId) recordApiKeyUse(principal.apiKeyId);
  return { principal, retryAfter };
}

/**
 * The caller of a public operation that may also be signed in (an invitation's acceptance): null when the request
 * carries no credential at all, 401 when it carries one that does not check out, else as `admitCaller`.
 */
export async function optionalCaller(
  req: NextRequest,
): Promise<{ principal: Principal; retryAfter: number | null } | null> {
  const credential = await credentialOf(req);
  if (!credential && req.headers.get('authorization') === null) return null;
  return admitCaller(req, async () => credential);
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

/**
 * Right after authentication, before anything else is read: a key used from outside its `allowedIps` (403
 * `ip_not_allowed`), then a key that breaks its organization's key policy (403 `key_policy_violation`). Both
 * come from the cached lookup of the key, so neither costs a query.
 */
export function admitKeyRequest(principal: Principal, headers: Headers): void {
  const scope = principal.keyScope;
  if (!scope) return;
  if (!keyAllowsAddress(scope, clientAddress(headers)))
    throw new ApiError('ip_not_allowed', `This API key is not allowed from ${clientAddress(headers)}.`);
  if (scope.policyViolations.length > 0)
    throw new ApiError(
      'key_policy_violation',
      `This API key breaks the organization's key policy (${scope.policyViolations.join(', ')}); it is kept, and works again if the policy allows it.`,
    );
}
