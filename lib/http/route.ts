import { randomBytes } from 'node:crypto';
import type { NextRequest } from 'next/server';
import { type z } from 'zod';
import { authenticate } from './authenticate';
import { ApiError, invalidRequest, notFound } from './errors';
import { isDatabaseUnavailable } from '../db/errors';
import { zodIssues } from './issues';
import { checkOrigin } from './origin';
import { apiLimiter } from './rate-limit';
import { readBody, MAX_BODY_BYTES } from './body';
import { withIdempotency } from './idempotency';
import { principalKey } from '../auth/principal';
import { canSeeOrganization, findProject, hasPermission, type ProjectRef } from '../auth/service';
import type { Permission } from '../auth/policies';
import type { Operation } from './operation';
import type { Principal } from '../auth/principal';
import { auditSource } from '../audit/source';
import type { AuditSource } from '../audit/types';

type AnyZod = z.ZodType;
type Out<S> = S extends AnyZod ? z.output<S> : undefined;

export type RouteContext<P, Q, B> = {
  req: NextRequest;
  requestId: string;
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  principal: Principal;
  /** The project named by the path, already checked to be in the organization. */
  project: ProjectRef | null;
  /** Throws 403 `access_denied` unless the caller has the permission at the path's scope (or the one given). */
  authorize: (permission: Permission, scope?: { projectId?: string | null }) => Promise<void>;
  /** Whether the caller has the permission, for handlers whose rule depends on the request. */
  can: (permission: Permission, scope?: { projectId?: string | null }) => Promise<boolean>;
  /** Who and from where, for the audit event of a change (lib/audit/record.ts). */
  audit: AuditSource;
};

export type Handler<P, Q, B> = (ctx: RouteContext<P, Q, B>) => Promise<Response>;

export function newRequestId(): string {
  return `req_${randomBytes(12).toString('hex')}`;
}

export function json(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { 'content-type': 'application/json; charset=utf-8', ...init.headers },
  });
}

export function noContent(): Response {
  return new Response(null, { status: 204 });
}

export function errorResponse(err: unknown, requestId: string): Response {
  let apiError: ApiError;
  if (err instanceof ApiError) {
    apiError = err;
  } else if (isDatabaseUnavailable(err)) {
    console.error(`[${requestId}] database unavailable:`, err);
    apiError = new ApiError('unavailable', 'The database is unavailable; retry after the time in Retry-After.', {
      headers: { 'retry-after': '5' },
    });
  } else {
    console.error(`[${requestId}] unhandled error:`, err);
    apiError = new ApiError(
      'internal_error',
      `Internal error. The server log has the details under request ID ${requestId}.`,
    );
  }
  return json(apiError.body(), { status: apiError.status, headers: apiError.headers });
}

function finish(res: Response, requestId: string): Response {
  res.headers.set('x-request-id', requestId);
  if (!res.headers.has('cache-control')) res.headers.set('cache-control', 'no-store');
  return res;
}

/** Whether a query field takes every occurrence of its parameter (`action=a&action=b`): an array schema. */
function repeatable(field: unknown): boolean {
  let schema = field as { type?: string; unwrap?: () => unknown } | undefined;
  while (schema && schema.type !== 'array' && typeof schema.unwrap === 'function')
    schema = schema.unwrap() as typeof schema;
  return schema?.type === 'array';
}

/** The query as an object: the first occurrence of each parameter, or all of them for array fields. */
function queryObject(req: NextRequest, schema: AnyZod): Record<string, string | string[]> {
  const shape = 'shape' in schema ? (schema as unknown as z.ZodObject).shape : {};
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of req.nextUrl.searchParams) {
    if (repeatable(shape[key])) out[key] = [...((out[key] as string[] | undefined) ?? []), value];
    else if (!(key in out)) out[key] = value;
  }
  return out;
}

/** The operation's declared request headers, by their canonical names, so issues name the header (`If-Match`). */
function headerObject(req: NextRequest, schema: AnyZod): Record<string, string> {
  const out: Record<string, string> = {};
  const names = 'shape' in schema ? Object.keys((schema as unknown as z.ZodObject).shape) : [];
  for (const name of names) {
    const value = req.headers.get(name);
    if (value !== null) out[name] = value;
  }
  return out;
}

function parseJson(text: string | null): unknown {
  if (text === null || text.trim() === '')
    throw invalidRequest([{ path: '', message: 'A JSON request body is required.' }]);
  try {
    return JSON.parse(text);
  } catch {
    throw invalidRequest([{ path: '', message: 'The request body is not valid JSON.' }]);
  }
}

async function anyOf(permissions: Permission[], can: (permission: Permission) => Promise<boolean>): Promise<boolean> {
  for (const permission of permissions) if (await can(permission)) return true;
  return false;
}

type NextParams = { params: Promise<Record<string, string>> };

/**
 * Every authenticated /v1 route. Runs the checks in the order PRODUCT.md fixes:
 * 413 → 401 → 429 → 403 forbidden_origin → 404 (path) → 403 access_denied → 400 (query, headers, body)
 * → Idempotency-Key (when `idempotent`) → handler (404, 412, 409, 2xx).
 */
export function route<P extends AnyZod | undefined, Q extends AnyZod | undefined, B extends AnyZod | undefined>(
  config: Operation<P, Q, B>,
  handler: Handler<P, Q, B>,
) {
  return async (req: NextRequest, next: NextParams): Promise<Response> => {
    const requestId = newRequestId();
    try {
      const bodyText = await readBody(req, config.maxBodyBytes ?? MAX_BODY_BYTES);

      const principal = await authenticate(req);
      if (!principal) throw new ApiError('unauthenticated');

      const retryAfter = await apiLimiter.consume(principalKey(principal));
      if (retryAfter !== null)
        throw new ApiError('too_many_requests', undefined, { headers: { 'retry-after': String(retryAfter) } });

      if (principal.via === 'session') checkOrigin(req);

      const rawParams = next?.params ? await next.params : {};
      const params = config.params ? config.params.safeParse(rawParams) : { success: true as const, data: undefined };
      if (!params.success) throw notFound();
      const path = (params.data ?? {}) as { orgId?: string; projectId?: string };
      let project: ProjectRef | null = null;
      if (path.orgId) {
        if (!(await canSeeOrganization(principal, path.orgId))) throw notFound();
        if (path.projectId) {
          project = await findProject(path.orgId, path.projectId);
          if (!project || (config.requireAlerting && !project.alertingEnabled)) throw notFound();
        }
      }

      const can = async (permission: Permission, scope: { projectId?: string | null } = {}) => {
        if (!path.orgId) return false;
        const projectId = 'projectId' in scope ? scope.projectId : (path.projectId ?? null);
        return hasPermission(principal, permission, { organizationId: path.orgId, projectId });
      };
      const authorize = async (permission: Permission, scope?: { projectId?: string | null }) => {
        if (!(await can(permission, scope))) throw new ApiError('access_denied');
      };
      if (config.refuseApiKeys && principal.via === 'api_key')
        throw new ApiError('access_denied', config.refuseApiKeys);
      if (config.permission) await authorize(config.permission);
      if (config.anyPermission && !(await anyOf(config.anyPermission, can))) throw new ApiError('access_denied');

      const query = config.query
        ? config.query.safeParse(queryObject(req, config.query))
        : { success: true as const, data: undefined };
      if (!query.success) throw invalidRequest(zodIssues(query.error));
      const headers = config.headers ? config.headers.safeParse(headerObject(req, config.headers)) : undefined;
      const issues = headers && !headers.success ? zodIssues(headers.error) : [];
      let body: unknown;
      if (config.body) {
        const parsed = config.body.safeParse(parseJson(bodyText));
        if (!parsed.success) issues.push(...zodIssues(parsed.error));
        else body = parsed.data;
      }
      if (issues.length > 0) throw invalidRequest(issues);

      const run = () =>
        handler({
          req,
          requestId,
          params: params.data as Out<P>,
          query: query.data as Out<Q>,
          body: body as Out<B>,
          principal,
          project,
          authorize,
          can,
          audit: auditSource({ principal, req, requestId }),
        });
      // After authorization and validation: a replay still needs the same principal and a valid request.
      const res =
        config.idempotent && path.orgId
          ? await withIdempotency(
              req,
              {
                organizationId: path.orgId,
                principal: principalKey(principal),
                method: req.method,
                path: req.nextUrl.pathname,
              },
              bodyText,
              () => run().catch((err: unknown) => errorResponse(err, requestId)),
            )
          : await run();
      return finish(res, requestId);
    } catch (err) {
      return finish(errorResponse(err, requestId), requestId);
    }
  };
}

/** Routes that need no credential (health, device login): the envelope and request id still apply. */
export function publicRoute(
  config: Operation,
  handler: (ctx: { req: NextRequest; requestId: string }) => Promise<Response>,
) {
  return async (req: NextRequest): Promise<Response> => {
    const requestId = newRequestId();
    try {
      const declared = Number(req.headers.get('content-length') ?? 0);
      if (declared > (config.maxBodyBytes ?? MAX_BODY_BYTES)) throw new ApiError('payload_too_large');
      return finish(await handler({ req, requestId }), requestId);
    } catch (err) {
      return finish(errorResponse(err, requestId), requestId);
    }
  };
}
