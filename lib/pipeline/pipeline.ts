import type { NextRequest } from 'next/server';
import { ApiError, notFound } from '../errors';
import type { Principal } from '../auth/principal';
import { hasPermission } from '../auth/service';
import type { Permission } from '../permissions';
import { checkOrigin } from '../http/origin';
import { serve, type Protocol, type RequestLabel } from '../http/request';
import { admitKeyRequest } from './authenticate';
import type { CredentialSource } from './credentials';
import { pipelineHooks } from './hooks';
import { permissionRefusal } from './key-refusals';
import { checkNeeds, checkOwnerRule } from './needs';
import type { Needs, Operation } from './operation';
import { checkOrganizationRefusals } from './organization-refusals';
import { malformedResourceId } from './resource-ids';
import { declaredHeaders, readRequestBody, validateRequest, type RawBody } from './request-input';
import { resolveTenant, type Tenant } from './tenant';

/** The 403 for a permission the caller lacks, in the door's words (Alertmanager's name the fix). */
export type Refusal = (
  principal: Principal,
  permission: Permission,
  scope: { organizationId: string; projectId: string | null },
) => Promise<ApiError>;

/**
 * How one door into the app differs from the others; everything else, the order of the checks above all, is the
 * pipeline's (docs/architecture.md, "The request pipeline").
 */
export type Door<C> = {
  /** The error format: /v1's envelope, Alertmanager's JSON string, SCIM's or OAuth's error. */
  protocol: Protocol;
  /** Where the caller comes from: cookie or bearer, `Authorization` only, none, a signature, SCIM's token. */
  credential: CredentialSource<C>;
  /** What the pipeline checks: the operation's schemas, scope and needs (a door may pass only some of them). */
  operation: Partial<Operation>;
  /** `declared-length`: 413 from Content-Length alone, the stream left to the handler. */
  body?: 'read' | 'declared-length';
  /** The 429's message, when the door words it otherwise. */
  tooManyRequests?: string;
  /** The 404's message for a malformed path parameter. */
  paramMissing?: string;
  /** The tenant from the credential (SCIM's token names its organization); otherwise from the path's scope. */
  tenant?: (caller: C) => Tenant | null;
  /** The 403 for a missing permission; /v1's `permissionRefusal` unless given. */
  refusal?: Refusal;
  /** false: the declared query documents what the handler reads in its own words (Alertmanager). */
  validateQuery?: boolean;
  /** The door's own part of the 400 step (SCIM's query, OAuth's form), its result handed on as `input`. */
  input?: (req: NextRequest, raw: RawBody) => unknown;
};

/** A request that passed every check, with what they read. `params` are the parsed ones, or the raw ones without a schema. */
export type Passed<C> = {
  requestId: string;
  caller: C;
  principal: Principal | null;
  params: unknown;
  query: unknown;
  headers: unknown;
  body: unknown;
  input: unknown;
  raw: RawBody;
  tenant: Tenant | null;
  /** Whether the caller has the permission, at the tenant's project unless `scope` names another. */
  can: (permission: Permission, scope?: { projectId?: string | null }) => Promise<boolean>;
  refusal: (permission: Permission, scope?: { projectId?: string | null }) => Promise<ApiError>;
};

/**
 * The checks of every request, in the order the spec fixes and no door repeats: 413 (body size) → 401 (credential)
 * → 403 (a key's address and its organization's key policy) → 429 → 403 `forbidden_origin` (a cookie's request) →
 * 404 (a malformed path parameter, then the tenant) → 403 (credential kind, the organization's refusals, what the
 * operation needs, `sudo`) → 400 (query, headers, body, the door's own input) → the owner rule (its 404, then 403).
 */
export async function admitRequest<C>(
  door: Door<C>,
  req: NextRequest,
  rawParams: Record<string, string>,
  requestId: string,
): Promise<Passed<C>> {
  const op = door.operation;
  const raw = await readRequestBody(req, op, door.body);
  const { caller, principal, retryAfter } = await door.credential(req, raw);
  if (principal) admitKeyRequest(principal, req.headers);
  if (retryAfter !== null)
    throw new ApiError('too_many_requests', door.tooManyRequests, { headers: { 'retry-after': String(retryAfter) } });
  if (principal?.via === 'session') checkOrigin(req);

  const parsed = op.params ? op.params.safeParse(rawParams) : { success: true as const, data: rawParams };
  if (!parsed.success)
    throw malformedResourceId(op.params, rawParams, op.scope === 'project') ?? notFound(door.paramMissing);
  const params = (parsed.data ?? {}) as Record<string, unknown> & { orgId?: string; projectId?: string };
  const tenant = door.tenant ? door.tenant(caller) : principal && (await resolveTenant(op, principal, params));

  const at = (scope: { projectId?: string | null }) =>
    tenant && {
      organizationId: tenant.organizationId,
      projectId: 'projectId' in scope ? (scope.projectId ?? null) : (tenant.project?.id ?? null),
    };
  const can = async (permission: Permission, scope: { projectId?: string | null } = {}) => {
    const where = at(scope);
    return principal !== null && where !== null && hasPermission(principal, permission, where);
  };
  const refusal = (permission: Permission, scope: { projectId?: string | null } = {}) => {
    const where = at(scope);
    return principal && where
      ? (door.refusal ?? permissionRefusal)(principal, permission, where)
      : Promise.resolve(new ApiError('access_denied'));
  };
  if (principal) {
    if (Array.isArray(op.credentials) && !op.credentials.includes(principal.via))
      throw new ApiError('access_denied', op.credentialRefusal);
    if (tenant) await checkOrganizationRefusals(principal, tenant.organizationId);
    await checkNeeds(op as Needs, principal, params, can, refusal);
    if (op.sudo && (await pipelineHooks().outsideSudo(principal))) throw new ApiError('reauthentication_required');
  }

  const valid = validateRequest(req, op, raw, {
    headerNames: declaredHeaders(op.headers),
    query: door.validateQuery !== false,
  });
  const input = door.input?.(req, raw);
  if (principal && op.owner) await checkOwnerRule(op.owner, { params, body: valid.body, principal }, can, refusal);
  return { requestId, caller, principal, params, ...valid, input, raw, tenant, can, refusal };
}

/** The protocol's skeleton (request id, 500 or 503) with `Cache-Control: no-store` unless the handler chose. */
export function serveDoor(
  protocol: Protocol,
  run: (requestId: string) => Promise<Response>,
  at?: RequestLabel,
): Promise<Response> {
  return serve(protocol, run, at).then((res) => {
    if (!res.headers.has('cache-control')) res.headers.set('cache-control', 'no-store');
    return res;
  });
}

type NextParams = { params: Promise<Record<string, string>> };

/** A route file's handler for one door: the skeleton, the checks, then `finish` with what they passed. */
export function pipeline<C>(
  door: Door<C>,
  label: (req: NextRequest) => RequestLabel,
  finish: (passed: Passed<C>, req: NextRequest) => Promise<Response>,
) {
  return (req: NextRequest, next?: NextParams): Promise<Response> =>
    serveDoor(
      door.protocol,
      async (requestId) => finish(await admitRequest(door, req, next?.params ? await next.params : {}, requestId), req),
      label(req),
    );
}
