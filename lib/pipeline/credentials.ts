import type { NextRequest } from 'next/server';
import type { Principal } from '../auth/principal';
import { ApiError } from '../errors';
import { clientAddress } from '../http/public-origin';
import { anonymousLimiter, apiLimiter } from '../http/rate-limit';
import { admitCaller, authenticationFailure, headerCredential, optionalCaller } from './authenticate';
import type { RawBody } from './request-input';

/**
 * Who sent a request, as a door reads it: `caller` is what its handler gets (a principal, a signing key, an
 * identity provider's token, or nothing), `principal` the signed-in caller the permission checks ask about (null
 * for a door without one), and `retryAfter` the rate limit's verdict, answered as 429 after any 401.
 */
export type Admitted<C> = { caller: C; principal: Principal | null; retryAfter: number | null };

/** A door's credential: 401 when it does not check out (429 once its address failed too often), else `Admitted`. */
export type CredentialSource<C> = (req: NextRequest, raw: RawBody) => Promise<Admitted<C>>;

const byPrincipal = ({ principal, retryAfter }: { principal: Principal; retryAfter: number | null }) => ({
  caller: principal,
  principal,
  retryAfter,
});

const perAddress = (limit: string, req: NextRequest) =>
  anonymousLimiter.consume(`${limit}:${clientAddress(req.headers)}`);

/** /v1: the session cookie (its writes then checked for their origin), an API key or an OAuth token. */
export const cookieOrBearer: CredentialSource<Principal> = async (req) => byPrincipal(await admitCaller(req));

/** The `Authorization` header only, Bearer or Basic (Alertmanager's clients): a browser's cookie never counts. */
export const authorizationHeader: CredentialSource<Principal> = async (req) =>
  byPrincipal(await admitCaller(req, headerCredential));

/** A public operation a caller may be signed in for: limited per caller, or per client address under `limit`. */
export const optionalCredential =
  (limit: string): CredentialSource<Principal | null> =>
  async (req) => {
    const admitted = await optionalCaller(req);
    if (admitted) return byPrincipal(admitted);
    return { caller: null, principal: null, retryAfter: await perAddress(limit, req) };
  };

/** No credential at all, limited per client address under `limit` (the OAuth endpoints). */
export const clientAddressOnly =
  (limit: string): CredentialSource<null> =>
  async (req) => ({ caller: null, principal: null, retryAfter: await perAddress(limit, req) });

/** No credential and no limit of the pipeline's (health, the document; a handler may keep its own). */
export const noCredential: CredentialSource<null> = async () => ({ caller: null, principal: null, retryAfter: null });

/**
 * A bearer token of the door's own kind (SCIM's, per organization), looked up by `find`: 401 `refused` when it does
 * not check out (429 once the address failed too often), then limited per token under `limitKey`.
 */
export function doorBearerToken<C>(
  find: (token: string) => Promise<C | null>,
  limitKey: (caller: C) => string,
  refused: string,
): CredentialSource<C> {
  return async (req) => {
    const match = /^Bearer ([\x21-\x7e]+)$/i.exec(req.headers.get('authorization')?.trim() ?? '');
    const caller = match ? await find(match[1]) : null;
    if (!caller) {
      const failure = await authenticationFailure(req.headers);
      throw failure.code === 'too_many_requests' ? failure : new ApiError('unauthenticated', refused);
    }
    return { caller, principal: null, retryAfter: await apiLimiter.consume(limitKey(caller)) };
  };
}
