/**
 * Every error code the API can answer, with its HTTP status and default message.
 * Handlers throw `ApiError`; only `toErrorResponse` turns one into the envelope.
 */
export const ERROR_CODES = {
  invalid_request: { status: 400, message: 'The request is not valid.' },
  invalid_cursor: { status: 400, message: 'The cursor is not valid; start again without one.' },
  unauthenticated: {
    status: 401,
    message: 'Authentication is required: no credential, or one that does not check out.',
  },
  access_denied: { status: 403, message: 'You do not have permission to do this.' },
  forbidden_origin: { status: 403, message: 'This request comes from an origin that is not allowed.' },
  spend_limit_reached: { status: 403, message: 'The spend limit of this organization has been reached.' },
  not_found: { status: 404, message: 'Not found.' },
  quota_exceeded: { status: 409, message: 'A quota does not allow this request.' },
  idempotency_conflict: { status: 409, message: 'This Idempotency-Key was used for a different request.' },
  idempotency_in_progress: {
    status: 409,
    message: 'A request with this Idempotency-Key is still in progress; retry later.',
  },
  organization_deletion_pending: { status: 409, message: 'This organization is being deleted.' },
  operation_in_progress: { status: 409, message: 'Another operation on this resource is in progress.' },
  last_organization_admin: {
    status: 409,
    message: 'The last OrganizationAdmin cannot leave or be removed; make another member an admin first.',
  },
  silence_state_conflict: {
    status: 409,
    message: "The silence's current state does not accept some of the fields sent.",
  },
  api_key_expired: {
    status: 409,
    message: 'This API key has expired, so there is nothing to roll; create a new key instead.',
  },
  api_key_already_rolled: {
    status: 409,
    message: 'This API key was already rolled; roll its replacement instead.',
  },
  precondition_failed: { status: 412, message: 'If-Match does not name the current ETag; nothing changed.' },
  payload_too_large: { status: 413, message: 'The request body is larger than this endpoint accepts.' },
  too_many_requests: { status: 429, message: 'Too many requests; retry after the time in Retry-After.' },
  internal_error: { status: 500, message: 'Internal error.' },
  unavailable: { status: 503, message: 'The service is temporarily unavailable; retry after the time in Retry-After.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export type Issue = { path: string; message: string };

export type Quota = {
  id: string;
  kind: 'allocation' | 'rate' | 'usage' | 'concurrency';
  limit: number;
  scope: 'organization' | 'project' | 'resource';
  inFlight?: number;
  periodStart?: string;
  region?: string;
  resetsAt?: string;
  scopeResourceName?: string;
  used?: number;
  window?: string;
};

export type ErrorBody = { error: { code: ErrorCode; message: string; issues?: Issue[]; quota?: Quota } };

type ApiErrorOptions = {
  issues?: Issue[];
  quota?: Quota;
  /** Only quota_exceeded varies: 409 for allocation quotas, 429 for rate, usage and concurrency. */
  status?: number;
  headers?: Record<string, string>;
};

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly issues?: Issue[];
  readonly quota?: Quota;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message?: string, options: ApiErrorOptions = {}) {
    super(message ?? ERROR_CODES[code].message);
    this.name = 'ApiError';
    this.code = code;
    this.status = options.status ?? ERROR_CODES[code].status;
    this.issues = options.issues;
    this.quota = options.quota;
    this.headers = options.headers ?? {};
  }

  body(): ErrorBody {
    const error: ErrorBody['error'] = { code: this.code, message: this.message.slice(0, 1024) };
    if (this.issues) error.issues = this.issues;
    if (this.quota) error.quota = this.quota;
    return { error };
  }
}

export const invalidRequest = (issues: Issue[], message = 'The request is not valid.') =>
  new ApiError('invalid_request', message, { issues });

export const notFound = (what = 'Not found.') => new ApiError('not_found', what);
