import type { NextRequest } from 'next/server';
import { type z } from 'zod';
import { ApiError } from '../errors';
import { withIdempotency } from '../http/idempotency';
import { answerError, type Protocol, type RequestLabel } from '../http/request';
import { principalKey, type Principal } from '../auth/principal';
import type { ProjectRef } from '../auth/service';
import type { Permission } from '../permissions';
import type { CredentialKind, Operation } from './operation';
import { auditSource } from '../audit/source';
import type { AuditSource } from '../db/audit-types';
import { cookieOrBearer, noCredential } from './credentials';
import { pipeline, serveDoor, type Door } from './pipeline';
import { namedNotFound, resolveShortIds } from './resource-ids';

type AnyZod = z.ZodType;
type Out<S> = S extends AnyZod ? z.output<S> : undefined;

export type RouteContext<P, Q, B, H = undefined> = {
  req: NextRequest;
  requestId: string;
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  /** The operation's declared headers, validated: handlers never read `req.headers` for them again. */
  headers: Out<H>;
  principal: Principal;
  /** The project named by the path (scope `project`), already checked to be in the organization. */
  project: ProjectRef | null;
  /** Whether the caller has the permission, for handlers whose rule depends on the request. */
  can: (permission: Permission, scope?: { projectId?: string | null }) => Promise<boolean>;
  /** Who and from where, for the audit event of a change (lib/audit/record.ts). */
  audit: AuditSource;
};

export type Handler<P, Q, B, H = undefined> = (ctx: RouteContext<P, Q, B, H>) => Promise<Response>;

export function json(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { 'content-type': 'application/json; charset=utf-8', ...init.headers },
  });
}

export function noContent(): Response {
  return new Response(null, { status: 204 });
}

/** `/v1` speaks the error envelope of the spec. */
export const v1: Protocol = {
  name: 'v1',
  known: (err) => (err instanceof ApiError ? envelope(err) : null),
  failure: (failure, requestId) =>
    envelope(
      failure === 'unavailable'
        ? new ApiError('unavailable', 'The database is unavailable; retry after the time in Retry-After.')
        : new ApiError(
            'internal_error',
            `Internal error. The server log has the details under request ID ${requestId}.`,
          ),
    ),
};

function envelope(err: ApiError): Response {
  return json(err.body(), { status: err.status, headers: err.headers });
}

/** The envelope for any error: typed ones as thrown, the rest as 503 or 500 (logged under the request id). */
export function errorResponse(err: unknown, requestId: string): Response {
  return answerError(v1, err, requestId);
}

/** The /v1 skeleton: request id, envelope, and `Cache-Control: no-store` unless the handler chose. */
export function serveV1(run: (requestId: string) => Promise<Response>, at?: RequestLabel): Promise<Response> {
  return serveDoor(v1, run, at);
}

type Authenticated = { credentials: readonly CredentialKind[] };

/**
 * Every authenticated /v1 route: the pipeline's checks (lib/pipeline/pipeline.ts) with the cookie or a bearer
 * credential and the envelope, then `Idempotency-Key` (when `idempotent`) and the handler (404, 412, 409, 2xx).
 */
export function route<
  P extends AnyZod | undefined,
  Q extends AnyZod | undefined,
  B extends AnyZod | undefined,
  H extends AnyZod | undefined = undefined,
>(config: Operation<P, Q, B, H> & Authenticated, handler: Handler<P, Q, B, H>) {
  if (config.idempotent && config.scope === 'none') {
    throw new Error(`${config.method} ${config.path}: idempotency records belong to an organization`);
  }
  const door: Door<Principal> = { protocol: v1, credential: cookieOrBearer, operation: config as Partial<Operation> };
  return pipeline(
    door,
    (req) => labelOf(req, config),
    async ({ requestId, caller: principal, params, query, headers, body, raw, tenant, can }, req) => {
      // A path's short ids are resolved after every check, where an unknown uuid's 404 comes from the handler;
      // within the idempotent run, so a retried delete gets its stored answer rather than a 404.
      const run = async () => {
        const resolved = config.params ? await resolveShortIds(config.params, params, tenant) : undefined;
        try {
          return await handler({
            req,
            requestId,
            params: resolved as Out<P>,
            query: query as Out<Q>,
            body: body as Out<B>,
            headers: headers as Out<H>,
            principal,
            project: tenant?.project ?? null,
            can,
            audit: auditSource({ principal, req, requestId }),
          });
        } catch (err) {
          throw await namedNotFound(err, config.params, params, tenant);
        }
      };
      // After authorization and validation: a replay still needs the same principal and a valid request.
      if (!config.idempotent || !tenant) return run();
      return withIdempotency(
        req,
        {
          organizationId: tenant.organizationId,
          principal: principalKey(principal),
          method: req.method,
          path: req.nextUrl.pathname,
        },
        raw.format ? raw.format.requestText(raw.bytes, req.headers) : raw.text,
        () => run().catch((err: unknown) => errorResponse(err, requestId)),
      );
    },
  );
}

/** Routes that need no credential (health, the document): the skeleton and the body limit still apply. */
export function publicRoute(
  config: Operation & { credentials: 'public' },
  handler: (ctx: { req: NextRequest; requestId: string }) => Promise<Response>,
) {
  const door: Door<null> = {
    protocol: v1,
    credential: noCredential,
    operation: { maxBodyBytes: config.maxBodyBytes },
    body: 'declared-length',
  };
  return pipeline(
    door,
    (req) => labelOf(req, config),
    ({ requestId }, req) => handler({ req, requestId }),
  );
}

/** A /v1 request's label: its operation's path template (`/v1/organizations/{orgId}/…`), never the path. */
export function labelOf(req: NextRequest, config: Pick<Operation, 'path'>): RequestLabel {
  return { method: req.method, route: config.path };
}
