import { templateOf } from '../observability/metrics';
import type { NextRequest } from 'next/server';
import { ApiError } from '../errors';
import type { Protocol } from '../http/request';
import { doorBearerToken } from '../pipeline/credentials';
import { pipeline, type Door } from '../pipeline/pipeline';
import { decodeForm } from '../http/form';
import { depthIssue } from '../http/json-body';
import { inputIssues } from '../http/text';
import { ScimError } from './resource';
import { organizationForScimToken } from './service';
import { publicOrigin } from '../http/public-origin';
import { auditContext, identityProviderActor } from '../audit/source';
import type { AuditSource } from '../db/audit-types';

const SCIM_MAX_BODY = 256 * 1024;
const SCIM_TOKEN_REQUIRED = 'A valid SCIM bearer token is required.';

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
    if (err instanceof ApiError && err.code === 'unauthenticated') return scimError(new ScimError(401, err.message));
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

type ScimToken = NonNullable<Awaited<ReturnType<typeof organizationForScimToken>>>;

/** SCIM's door: its per-organization bearer token, which also names the tenant, and SCIM's error format. */
const scimDoor: Door<ScimToken> = {
  protocol: scimProtocol,
  credential: doorBearerToken(organizationForScimToken, (token) => `scim:${token.tokenId}`, SCIM_TOKEN_REQUIRED),
  operation: { maxBodyBytes: SCIM_MAX_BODY },
  tooManyRequests: 'Too many requests; retry later.',
  tenant: (token) => ({ organizationId: token.organizationId, project: null }),
  input: (req) => {
    const query = decodeForm(req.nextUrl.search).issues[0];
    if (query) throw new ScimError(400, `Query parameter "${query.path}": ${query.message}`, 'invalidValue');
  },
};

/** SCIM routes: the pipeline through SCIM's door; the handler parses the body when it needs one. */
export function scimRoute(handler: (ctx: ScimContext) => Promise<Response>) {
  return pipeline(
    scimDoor,
    (req) => ({ method: req.method, route: templateOf(req.nextUrl.pathname) }),
    ({ requestId, caller: token, params, raw }, req) => {
      const text = raw.text;
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
        organizationId: token.organizationId,
        audit: {
          actor: identityProviderActor({ id: token.tokenId, prefix: token.prefix }),
          context: auditContext(req, requestId),
        },
        baseUrl: publicOrigin(req),
        params: params as Record<string, string>,
        body,
      });
    },
  );
}
