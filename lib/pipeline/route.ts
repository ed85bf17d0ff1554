import type { NextRequest } from 'next/server';
import { type z } from 'zod';
import { admitCaller } from './authenticate';
import { ApiError, invalidRequest, notFound } from '../errors';
import { parseJsonBody } from '../http/json-body';
import { validateInput, validateQuery } from '../http/validate';
import { checkOrigin } from '../http/origin';
import { admitKeyRequest, permissionRefusal } from './key-refusals';
import { decodeUtf8, readBodyBytes, MAX_BODY_BYTES } from '../http/body';
import { withIdempotency } from '../http/idempotency';
import { answerError, serve, type Protocol, type RequestLabel } from '../http/request';
import { principalKey } from '../auth/principal';
import { canSeeOrganization, findProject, hasPermission, type ProjectRef } from '../auth/service';
import type { Permission } from '../permissions';
import type { CredentialKind, Operation } from './operation';
import type { Principal } from '../auth/principal';
import { auditSource } from '../audit/source';
import { checkOrganizationRefusals, pipelineHooks } from './hooks';
import { checkNeeds, checkOwnerRule } from './needs';
import { formatOf, validateFormatBody } from './body-format';
import type { AuditSource } from '../db/audit-types';

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
const v1: Protocol = {
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
  return serve(v1, run, at).then((res) => {
    if (!res.headers.has('cache-control')) res.headers.set('cache-control', 'no-store');
    return res;
  });
}

/** The header names an operation declares, read once per route rather than on every request. */
function declaredHeaders(schema: AnyZod | undefined): string[] {
  return schema && 'shape' in schema ? Object.keys((schema as unknown as z.ZodObject).shape) : [];
}

/** The operation's declared request headers, by their canonical names, so issues name the header (`If-Match`). */
function headerObject(req: NextRequest, names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = req.headers.get(name);
    if (value !== null) out[name] = value;
  }
  return out;
}

type NextParams = { params: Promise<Record<string, string>> };

type Authenticated = { credentials: readonly CredentialKind[] };

/**
 * Every authenticated /v1 route. Runs the checks in the order PRODUCT.md fixes:
 * 413 → 401 → 403 ip_not_allowed, key_policy_violation → 429 → 403 forbidden_origin → 404 (path, tenant scope)
 * → 403 (credential kind, two_factor_required, what the operation needs: a permission, or a self door a narrowed key
 * may not pass) → 403 reauthentication_required (`sudo`) → 400 (query, headers, body) → the declared owner rule (404
 * of the resource, then 403) → Idempotency-Key (when `idempotent`) → handler (404, 412, 409, 2xx).
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
  const headerNames = declaredHeaders(config.headers);
  return (req: NextRequest, next: NextParams): Promise<Response> =>
    serveV1(
      async (requestId) => {
        const format = formatOf(config.bodyFormats, req.headers);
        const bytes = await readBodyBytes(req, config.maxBodyBytes ?? MAX_BODY_BYTES);
        // A declared format decodes its own bytes (binary data need not be text); a JSON body is UTF-8 first.
        const bodyText = format ? null : bytes && decodeUtf8(bytes);

        const { principal, retryAfter } = await admitCaller(req);
        admitKeyRequest(principal, req.headers);
        if (retryAfter !== null)
          throw new ApiError('too_many_requests', undefined, { headers: { 'retry-after': String(retryAfter) } });

        if (principal.via === 'session') checkOrigin(req);

        const rawParams = next?.params ? await next.params : {};
        const params = config.params ? config.params.safeParse(rawParams) : { success: true as const, data: undefined };
        if (!params.success) throw notFound();
        const tenant = await resolveTenant(config, principal, (params.data ?? {}) as TenantParams);

        const can = async (permission: Permission, scope: { projectId?: string | null } = {}) => {
          if (!tenant) return false;
          const projectId = 'projectId' in scope ? scope.projectId : (tenant.project?.id ?? null);
          return hasPermission(principal, permission, { organizationId: tenant.organizationId, projectId });
        };
        const refusal = (permission: Permission, scope: { projectId?: string | null } = {}) =>
          tenant
            ? permissionRefusal(principal, permission, {
                organizationId: tenant.organizationId,
                projectId: 'projectId' in scope ? (scope.projectId ?? null) : (tenant.project?.id ?? null),
              })
            : Promise.resolve(new ApiError('access_denied'));
        if (!config.credentials.includes(principal.via)) throw new ApiError('access_denied', config.credentialRefusal);
        if (tenant) await checkOrganizationRefusals(principal, tenant.organizationId);
        await checkNeeds(config, principal, (params.data ?? {}) as Record<string, unknown>, can, refusal);
        if (config.sudo && (await pipelineHooks().outsideSudo(principal)))
          throw new ApiError('reauthentication_required');

        const query = config.query
          ? validateQuery(config.query, req.nextUrl.search)
          : { success: true as const, data: undefined };
        if (!query.success) throw invalidRequest(query.issues);
        const headers = config.headers ? validateInput(config.headers, headerObject(req, headerNames)) : undefined;
        const issues = headers?.issues ?? [];
        let body: unknown;
        // A format is chosen by headers: with a header refused, its body would be read under the wrong rules.
        if (config.body && !(format && issues.length > 0)) {
          const parsed = format
            ? validateFormatBody(format, config.body, bytes, req.headers)
            : validateInput(config.body, parseJsonBody(bodyText, config.body));
          if (!parsed.success) issues.push(...parsed.issues);
          else body = parsed.data;
        }
        if (issues.length > 0) throw invalidRequest(issues);
        if (config.owner)
          await checkOwnerRule(
            config.owner,
            { params: params.data as Out<P>, body: body as Out<B>, principal },
            can,
            refusal,
          );

        const run = () =>
          handler({
            req,
            requestId,
            params: params.data as Out<P>,
            query: query.data as Out<Q>,
            body: body as Out<B>,
            headers: (headers?.success ? headers.data : undefined) as Out<H>,
            principal,
            project: tenant?.project ?? null,
            can,
            audit: auditSource({ principal, req, requestId }),
          });
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
          format ? format.requestText(bytes, req.headers) : bodyText,
          () => run().catch((err: unknown) => errorResponse(err, requestId)),
        );
      },
      labelOf(req, config),
    );
}

type TenantParams = { orgId?: string; projectId?: string };
type Tenant = { organizationId: string; project: ProjectRef | null };

/** The organization (and project) the operation's scope names, or 404 when the caller cannot see it. */
export async function resolveTenant(
  config: Pick<Operation, 'scope' | 'requireAlerting'>,
  principal: Principal,
  path: TenantParams,
): Promise<Tenant | null> {
  if (config.scope === 'none') return null;
  if (!path.orgId || !(await canSeeOrganization(principal, path.orgId))) throw notFound();
  if (config.scope === 'organization') return { organizationId: path.orgId, project: null };
  const project = path.projectId ? await findProject(path.orgId, path.projectId) : null;
  if (!project || (config.requireAlerting && !project.alertingEnabled)) throw notFound();
  return { organizationId: path.orgId, project };
}

/** Routes that need no credential (health, the document): the skeleton and the body limit still apply. */
export function publicRoute(
  config: Operation & { credentials: 'public' },
  handler: (ctx: { req: NextRequest; requestId: string }) => Promise<Response>,
) {
  return (req: NextRequest): Promise<Response> =>
    serveV1(
      async (requestId) => {
        const declared = Number(req.headers.get('content-length') ?? 0);
        if (declared > (config.maxBodyBytes ?? MAX_BODY_BYTES)) throw new ApiError('payload_too_large');
        return handler({ req, requestId });
      },
      labelOf(req, config),
    );
}

/** A /v1 request's label: its operation's path template (`/v1/organizations/{orgId}/…`), never the path. */
export function labelOf(req: NextRequest, config: Pick<Operation, 'path'>): RequestLabel {
  return { method: req.method, route: config.path };
}
