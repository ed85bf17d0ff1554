import type { NextRequest } from 'next/server';
import { readBody } from '../http/body';
import { ApiError, notFound } from '../http/errors';
import type { Principal } from '../auth/principal';
import { anonymousLimiter } from '../http/rate-limit';
import { newRequestId } from '../http/route';
import { clientAddress } from '../http/client-address';
import { auditContext } from '../audit/source';
import type { AuditContext } from '../audit/types';
import { isDatabaseUnavailable } from '../db/errors';
import { OAuthError } from './service';

const FORM_LIMIT_BYTES = 8 * 1024;

/** RFC 6749 §5.1: token answers must never be cached. */
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

function oauthJson(body: unknown, status: number, requestId: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId, ...NO_STORE, ...headers },
  });
}

/**
 * The OAuth endpoints (outside /v1): form-encoded requests, `{error, error_description}` answers as RFC 6749
 * §5.2 prescribes, rate-limited per client address because they take no credential.
 */
export function oauthEndpoint(
  name: string,
  handler: (form: URLSearchParams, context: AuditContext) => Promise<{ body: unknown; status?: number }>,
) {
  return async (req: NextRequest): Promise<Response> => {
    const requestId = newRequestId();
    try {
      const retryAfter = await anonymousLimiter.consume(`oauth:${clientAddress(req)}`);
      if (retryAfter !== null) {
        return oauthJson(
          { error: 'too_many_requests', error_description: 'Too many requests; retry after the time in Retry-After.' },
          429,
          requestId,
          { 'retry-after': String(retryAfter) },
        );
      }
      const type = req.headers.get('content-type') ?? '';
      if (!type.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
        throw new OAuthError('invalid_request', 'The request body must be application/x-www-form-urlencoded.');
      }
      const form = new URLSearchParams((await readBody(req, FORM_LIMIT_BYTES)) ?? '');
      const { body, status } = await handler(form, auditContext(req, requestId));
      return oauthJson(body, status ?? 200, requestId);
    } catch (err) {
      if (err instanceof OAuthError) {
        // RFC 6749 §5.2: 401 for client authentication failures, 400 for the rest.
        return oauthJson(
          { error: err.code, error_description: err.message },
          err.code === 'invalid_client' ? 401 : 400,
          requestId,
        );
      }
      if (err instanceof ApiError && err.code === 'payload_too_large') {
        return oauthJson({ error: 'invalid_request', error_description: err.message }, 413, requestId);
      }
      if (isDatabaseUnavailable(err)) {
        console.error(`[${requestId}] ${name}: database unavailable:`, err);
        return oauthJson(
          { error: 'temporarily_unavailable', error_description: 'Retry after the time in Retry-After.' },
          503,
          requestId,
          {
            'retry-after': '5',
          },
        );
      }
      console.error(`[${requestId}] ${name}: unhandled error:`, err);
      return oauthJson(
        { error: 'server_error', error_description: `Internal error; the server log has it under ${requestId}.` },
        500,
        requestId,
      );
    }
  };
}

/** Where people approve device logins: the app's public origin when configured, else the one the request came to. */
export function appOrigin(req: NextRequest): string {
  const configured = process.env.APP_URL ?? process.env.NEXTAUTH_URL;
  if (configured) return new URL(configured).origin;
  const host = req.headers.get('x-forwarded-host') ?? req.headers.get('host');
  const proto = req.headers.get('x-forwarded-proto') ?? req.nextUrl.protocol.replace(':', '');
  return host ? `${proto}://${host}` : req.nextUrl.origin;
}

/** Device logins are decided by a person in the console, never by a credential a device holds. */
export function requireConsoleSession(principal: Principal): void {
  if (principal.via !== 'session') {
    throw new ApiError(
      'access_denied',
      'Device logins can only be viewed, approved or denied by a signed-in console session, not with a token or API key.',
    );
  }
}

export const deviceCodeGone = () =>
  notFound('This code is unknown, has expired or was already used. Run `svc login` again to get a new one.');
