import type { z } from 'zod';
import type { Permission } from '../permissions';
import type { Principal } from '../auth/principal';
import type { ErrorCode } from '../errors';
import type { BodyFormat } from './body-format';

type AnyZod = z.ZodType;

export type CredentialKind = Principal['via'];

/** Every credential the spec names: session cookie, API key, OAuth bearer token. */
export const ANY_CREDENTIAL = ['session', 'api_key', 'oauth'] as const satisfies readonly CredentialKind[];
/** Operations that would mint a credential: an API key may not, so a leaked key cannot multiply itself. */
export const NOT_API_KEYS = ['session', 'oauth'] as const satisfies readonly CredentialKind[];
/** Decisions a person makes in the console, never a token a device holds. */
export const CONSOLE_SESSION = ['session'] as const satisfies readonly CredentialKind[];

/**
 * The tenant a path names, checked by the wrapper before any permission: `organization` needs `{orgId}`,
 * `project` needs `{orgId}` and `{projectId}` (the project must be in the organization), `none` names neither.
 * An unknown tenant, or one the caller is not in, is 404.
 */
export type Scope = 'organization' | 'project' | 'none';

/**
 * What a **self** operation does for a key restricted by permissions or projects, which only ever reaches what its
 * permissions name (PRODUCT.md, "Restricted keys and the owner's own doors"): refused (403 `key_scope_insufficient`)
 * unless the operation is one of the doors every key keeps, or the key names `orPermission`.
 */
export type SelfAccess = {
  /** With this permission the operation reaches everyone's things, not only the caller's: a key naming it passes. */
  orPermission?: Permission;
  /**
   * The doors any key keeps: `always` (what the key is, its organization, what it may do), or `ownKey`, the path
   * parameter that names the calling key itself (a key may always revoke itself, as RFC 7009 lets a client).
   */
  restrictedKeys?: 'always' | { ownKey: string };
};

/**
 * What the caller needs, declared by every operation: exactly one of a permission (checked by the wrapper at the
 * path's scope), any of several (the body decides which), `self` (the caller's own things: no permission, but a
 * restricted key is refused), or no credential at all (`public`, `signed`). An operation that declares none of
 * them does not compile, so none can slip past the restricted-key sweep.
 */
export type Needs =
  /** Checked at the path's scope (the project when the path names one) before the body is validated. */
  | { permission: Permission; anyPermission?: never; self?: never }
  /** Passes when the caller has any one of these (the body then decides which one is needed). */
  | { anyPermission: Permission[]; permission?: never; self?: never }
  | { self: SelfAccess; permission?: never; anyPermission?: never }
  | { credentials: 'public' | 'signed'; permission?: never; anyPermission?: never; self?: never };

type Out<S> = S extends AnyZod ? z.output<S> : undefined;

/** Who owns a resource: the user or bot an API key, or its leak notice, belongs to. */
export type ResourceOwner = { type: 'user' | 'bot'; id: string };

/**
 * What acting on a resource needs when that depends on its owner, declared on the operation and checked by the
 * wrapper after validation, in the spec's order: the resource's 404, then its 403. `find` names the owner of what
 * the path (or the body) names, null for none (404 with `missing`, or `missingFor` the path). The caller needs `bot` for a bot's resource
 * (when given), `own` for its own (nothing when absent), `other` for anyone else's, where `{ refused }` is a 403
 * whatever the caller holds.
 */
export type OwnerRule<P, B> = {
  find(input: { params: P; body: B; principal: Principal }): Promise<ResourceOwner | null>;
  missing?: string;
  /** The 404's message made from the path, naming the id it could not find (rather than `missing`). */
  missingFor?(params: P): string;
  bot?: Permission;
  own?: Permission;
  other: Permission | { refused: string };
};

type OperationBase<P, Q, B, H> = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** OpenAPI form: `/v1/organizations/{orgId}/…`. */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  scope: Scope;
  /**
   * `public` takes no credential (health, the document); `signed` is authenticated by a signature over the
   * body instead (secret scanning reports); otherwise the kinds accepted, any other is 403.
   */
  credentials: 'public' | 'signed' | readonly CredentialKind[];
  /** The 403 `access_denied` message for a credential kind not in `credentials`. */
  credentialRefusal?: string;
  /** Path parameters; any that fails (a malformed id) is 404, as the spec orders. */
  params?: P;
  query?: Q;
  /** The request body schema; a body is required unless the schema accepts none (`.optional()`). */
  body?: B;
  /** Other formats the body may come in (CloudEvents), each read into what `body` validates; JSON otherwise. */
  bodyFormats?: readonly BodyFormat[];
  /** Request headers the operation reads (If-Match, Idempotency-Key): validated like the body, issues at the header name. */
  headers?: H;
  /** Honours `Idempotency-Key` (lib/http/idempotency.ts): retries get the stored response. Needs a tenant scope. */
  idempotent?: boolean;
  /**
   * Needs a recent authentication of this console session (`SUDO_WINDOW_SECONDS`), else 403
   * `reauthentication_required`: checked after `access_denied`, before the body. Bearer credentials are not asked.
   */
  sudo?: boolean;
  /** Silence routes: the project must have alerting switched on, else 404. */
  requireAlerting?: boolean;
  maxBodyBytes?: number;
  /**
   * The handler reads the body text itself and `body` only documents it: Alertmanager's `POST /alerts` answers an
   * undecodable body, a schema failure and a refused alert each in its own shape.
   */
  rawBody?: boolean;
  success: { status: number; description: string; schema?: AnyZod; headers?: Record<string, string> };
  /** A rule on the owner of the resource the path names, checked once the request is valid (`OwnerRule`). */
  owner?: OwnerRule<Out<P>, Out<B>>;
  /** Endpoint-specific error codes beyond the ones every authenticated route can answer. */
  errors?: ErrorCode[];
};

/**
 * One /v1 operation as data: what the route wrapper enforces and what the OpenAPI document shows.
 * Route files pair an operation with its handler: `export const PATCH = route(updateSubscription, handler)`.
 */
export type Operation<
  P extends AnyZod | undefined = AnyZod | undefined,
  Q extends AnyZod | undefined = AnyZod | undefined,
  B extends AnyZod | undefined = AnyZod | undefined,
  H extends AnyZod | undefined = AnyZod | undefined,
> = OperationBase<P, Q, B, H> & Needs;

/** Keeps the literal `credentials`, so `route()` and `publicRoute()` can each take only their kind. */
export function defineOperation<
  P extends AnyZod | undefined = undefined,
  Q extends AnyZod | undefined = undefined,
  B extends AnyZod | undefined = undefined,
  H extends AnyZod | undefined = undefined,
  C extends Operation['credentials'] = Operation['credentials'],
>(op: Operation<P, Q, B, H> & { credentials: C }): Operation<P, Q, B, H> & { credentials: C } {
  return op;
}

/** The path parameters a scope requires, so a test can hold every operation's path to its declared scope. */
export const SCOPE_PARAMS: Record<Scope, string[]> = {
  organization: ['orgId'],
  project: ['orgId', 'projectId'],
  none: [],
};
