import { templateOf } from '../observability/metrics';
import type { NextRequest } from 'next/server';
import { readBody } from '../http/body';
import { ApiError } from '../errors';
import { serve, type Protocol } from '../http/request';
import { authenticationFailure } from '../pipeline/authenticate';
import { decodeForm } from '../http/form';
import { depthIssue } from '../http/json-body';
import { inputIssues } from '../http/text';
import { apiLimiter } from '../http/rate-limit';
import { ScimError } from './resource';
import { organizationForScimToken } from './service';
import { publicOrigin } from '../http/public-origin';
import { auditContext, identityProviderActor } from '../audit/source';
import type { AuditSource } from '../db/audit-types';

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

/** SCIM's own error format (RFC 7644 §3.12), with the headers its statuses call for. */
const scimProtocol: Protocol = {
  name: 'scim',
  known: (err) => {
    if (err instanceof ScimError) return scimError(err);
    if (err instanceof ApiError && err.code === 'payload_too_large') return scimError(new ScimError(413, err.message));
    if (err instanceof ApiError && err.code === 'invalid_request')
      return scimError(new ScimError(400, err.message, 'invalidSyntax'));
    if (err instanceof ApiError && err.code === 'too_many_requests') {
      const res = scimError(new ScimError(429, err.message));
      for (const [name, value] of Object.entries(err.headers)) res.headers.set(name, value);
      return res;
    }
    return null;
  },
  failure: (failure, requestId) =>
    scimError(
      failure === 'unavailable'
        ? new ScimError(503, 'The database is unavailable; retry later.')
        : new ScimError(500, `Internal error. The server log has the details under request ID ${requestId}.`),
    ),
};

function scimError(error: ScimError): Response {
  const res = scimJson(error.body(), error.status);
  if (error.status === 401) res.headers.set('www-authenticate', 'Bearer realm="scim"');
  return res;
}

/** SCIM routes: a per-organization bearer token, SCIM's own error format, and the request id on every answer. */
export function scimRoute(handler: (ctx: ScimContext) => Promise<Response>) {
  return async (req: NextRequest, next: { params: Promise<Record<string, string>> }): Promise<Response> => {
    const res = await serve(
      scimProtocol,
      async (requestId) => {
        const text = await readBody(req, SCIM_MAX_BODY);
        const match = /^Bearer ([\x21-\x7e]+)$/i.exec(req.headers.get('authorization')?.trim() ?? '');
        const scope = match ? await organizationForScimToken(match[1]) : null;
        if (!scope) {
          const failure = await authenticationFailure(req.headers);
          if (failure.code === 'too_many_requests') throw failure;
          throw new ScimError(401, 'A valid SCIM bearer token is required.');
        }
        const retryAfter = await apiLimiter.consume(`scim:${scope.tokenId}`);
        if (retryAfter !== null) {
          const res = scimError(new ScimError(429, 'Too many requests; retry later.'));
          res.headers.set('retry-after', String(retryAfter));
          return res;
        }
        const query = decodeForm(req.nextUrl.search).issues[0];
        if (query) throw new ScimError(400, `Query parameter "${query.path}": ${query.message}`, 'invalidValue');
        const body = () => {
          if (text === null) throw new ScimError(400, 'A JSON request body is required.', 'invalidSyntax');
          let value: unknown;
          try {
            value = JSON.parse(text);
          } catch {
            throw new ScimError(400, 'The request body is not valid JSON.', 'invalidSyntax');
          }
          const tooDeep = depthIssue(text);
          if (tooDeep) throw new ScimError(400, tooDeep.message, 'invalidSyntax');
          const issue = inputIssues(value)[0];
          if (issue) throw new ScimError(400, `At "${issue.path}": ${issue.message}`, 'invalidValue');
          return value;
        };
        return handler({
          req,
          organizationId: scope.organizationId,
          audit: {
            actor: identityProviderActor({ id: scope.tokenId, prefix: scope.prefix }),
            context: auditContext(req, requestId),
          },
          baseUrl: publicOrigin(req),
          params: next?.params ? await next.params : {},
          body,
        });
      },
      { method: req.method, route: templateOf(req.nextUrl.pathname) },
    );
    res.headers.set('cache-control', 'no-store');
    return res;
  };
}
