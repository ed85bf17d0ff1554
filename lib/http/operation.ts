import type { z } from 'zod';
import type { Permission } from '../auth/policies';
import type { ErrorCode } from './errors';

type AnyZod = z.ZodType;

/**
 * One /v1 operation as data: what the route wrapper enforces and what the OpenAPI document shows.
 * Route files pair an operation with its handler: `export const PATCH = route(updateSubscription, handler)`.
 */
export type Operation<
  P extends AnyZod | undefined = AnyZod | undefined,
  Q extends AnyZod | undefined = AnyZod | undefined,
  B extends AnyZod | undefined = AnyZod | undefined,
> = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** OpenAPI form: `/v1/organizations/{orgId}/…`. */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  /** Path parameters; any that fails (a malformed id) is 404, as the spec orders. */
  params?: P;
  query?: Q;
  /** The request body schema; a body is required unless the schema accepts none (`.optional()`). */
  body?: B;
  /** Request headers the operation reads (e.g. If-Match, Idempotency-Key): validated like the body, issues at the header name. */
  headers?: AnyZod;
  /** Honours `Idempotency-Key` (lib/http/idempotency.ts): retries get the stored response. */
  idempotent?: boolean;
  /** Checked at the path's scope (the project when the path names one) before the body is validated. */
  permission?: Permission;
  /** Passes when the caller has any one of these (the body then decides which one is needed). */
  anyPermission?: Permission[];
  /** Refuses every API-key-authenticated request with 403 `access_denied` and this message, before the body is read. */
  refuseApiKeys?: string;
  /** Silence routes: the project must have alerting switched on, else 404. */
  requireAlerting?: boolean;
  maxBodyBytes?: number;
  /** false for routes that take no credential (health, device login). */
  authenticated?: boolean;
  success: { status: number; description: string; schema?: AnyZod; headers?: Record<string, string> };
  /** Endpoint-specific error codes beyond the ones every authenticated route can answer. */
  errors?: ErrorCode[];
};

export function defineOperation<
  P extends AnyZod | undefined = undefined,
  Q extends AnyZod | undefined = undefined,
  B extends AnyZod | undefined = undefined,
>(op: Operation<P, Q, B>): Operation<P, Q, B> {
  return op;
}
