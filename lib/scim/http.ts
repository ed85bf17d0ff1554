import type { NextRequest } from 'next/server';
import { readBody } from '../http/body';
import { ApiError } from '../http/errors';
import { newRequestId } from '../http/route';
import { apiLimiter } from '../http/rate-limit';
import { isDatabaseUnavailable } from '../db/errors';
import { ScimError } from './resource';
import { organizationForScimToken } from './service';
import { auditContext, identityProviderActor } from '../audit/source';
import type { AuditSource } from '../audit/types';

const SCIM_MAX_BODY = 256 * 1024;

export type ScimContext = {
  req: NextRequest;
  organizationId: string;
  /** The identity provider (by its token's prefix) and the request, for audit events. */
  audit: AuditSource;
  baseUrl: string;
  params: Record<string, string>;
  body: () => unknown;
};

export function scimJson(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/scim+json; charset=utf-8' },
  });
}

function scimFailure(err: unknown, requestId: string): Response {
  let error: ScimError;
  if (err instanceof ScimError) error = err;
  else if (err instanceof ApiError && err.code === 'payload_too_large') error = new ScimError(413, err.message);
  else if (err instanceof ApiError && err.code === 'too_many_requests') error = new ScimError(429, err.message);
  else if (isDatabaseUnavailable(err)) error = new ScimError(503, 'The database is unavailable; retry later.');
  else {
    console.error(`[${requestId}] unhandled SCIM error:`, err);
    error = new ScimError(500, `Internal error. The server log has the details under request ID ${requestId}.`);
  }
  const res = scimJson(error.body(), error.status);
  if (error.status === 401) res.headers.set('www-authenticate', 'Bearer realm="scim"');
  if (error.status === 429 || error.status === 503) res.headers.set('retry-after', '5');
  return res;
}

/** SCIM routes: a per-organization bearer token, SCIM's own error format, and the request id on every answer. */
export function scimRoute(handler: (ctx: ScimContext) => Promise<Response>) {
  return async (req: NextRequest, next: { params: Promise<Record<string, string>> }): Promise<Response> => {
    const requestId = newRequestId();
    let res: Response;
    try {
      const text = await readBody(req, SCIM_MAX_BODY);
      const match = /^Bearer ([\x21-\x7e]+)$/i.exec(req.headers.get('authorization')?.trim() ?? '');
      const scope = match ? await organizationForScimToken(match[1]) : null;
      if (!scope) throw new ScimError(401, 'A valid SCIM bearer token is required.');
      const retryAfter = await apiLimiter.consume(`scim:${scope.tokenId}`);
      if (retryAfter !== null) throw new ScimError(429, 'Too many requests; retry later.');
      const body = () => {
        if (text === null) throw new ScimError(400, 'A JSON request body is required.', 'invalidSyntax');
        try {
          return JSON.parse(text) as unknown;
        } catch {
          throw new ScimError(400, 'The request body is not valid JSON.', 'invalidSyntax');
        }
      };
      const baseUrl = process.env.APP_URL ?? process.env.NEXTAUTH_URL ?? req.nextUrl.origin;
      res = await handler({
        req,
        organizationId: scope.organizationId,
        audit: {
          actor: identityProviderActor({ id: scope.tokenId, prefix: scope.prefix }),
          context: auditContext(req, requestId),
        },
        baseUrl: baseUrl.replace(/\/$/, ''),
        params: next?.params ? await next.params : {},
        body,
      });
    } catch (err) {
      res = scimFailure(err, requestId);
    }
    res.headers.set('x-request-id', requestId);
    res.headers.set('cache-control', 'no-store');
    return res;
  };
}
