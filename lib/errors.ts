import { z } from 'zod';

/**
 * Every error code the API can answer, with its HTTP status and default message.
 * Handlers throw `ApiError`; only the request skeleton (`answerError` in lib/http/request.ts) turns one into the
 * envelope of its protocol.
 */
export const ERROR_CODES = {
  invalid_request: { status: 400, message: 'The request is not valid.' },
  invalid_cursor: { status: 400, message: 'The cursor is not valid; start again without one.' },
  unauthenticated: {
    status: 401,
    message: 'Authentication is required: no credential, or one that does not check out.',
  },
  access_denied: { status: 403, message: 'You do not have permission to do this.' },
  key_scope_insufficient: {
    status: 403,
    message: "This API key's restrictions do not allow this, though its owner may: use a key that includes it.",
  },
  ip_not_allowed: { status: 403, message: 'This API key is not allowed from your address.' },
  key_policy_violation: {
    status: 403,
    message: "This API key breaks the organization's key policy; it is kept, and works again if the policy allows it.",
  },
  forbidden_origin: { status: 403, message: 'This request comes from an origin that is not allowed.' },
  reauthentication_required: {
    status: 403,
    message:
      'Confirm it is you: enter your password, a code from your authenticator app or a recovery code, or use a passkey, then try again.',
  },
  two_factor_required: {
    status: 403,
    message: 'This organization requires a second factor: add one on your Security page (/security) first.',
  },
  invitation_email_mismatch: {
    status: 403,
    message:
      'This invitation is for another email address: sign in as the invited address, or sign out and make its account.',
  },
  not_found: { status: 404, message: 'Not found.' },
  method_not_allowed: { status: 405, message: 'This path does not take this method; see the Allow header.' },
  idempotency_conflict: { status: 409, message: 'This Idempotency-Key was used for a different request.' },
  idempotency_in_progress: {
    status: 409,
    message: 'A request with this Idempotency-Key is still in progress; retry later.',
  },
  last_organization_admin: {
    status: 409,
    message: 'The last OrganizationAdmin cannot leave or be removed; make another member an admin first.',
  },
  email_taken: { status: 409, message: 'A user with this email address already exists.' },
  project_name_taken: { status: 409, message: 'A project of this organization already has this name.' },
  bot_name_taken: { status: 409, message: 'A bot of this organization already has this name.' },
  already_member: { status: 409, message: 'This person is already a member of the organization.' },
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
  second_factor_state_conflict: {
    status: 409,
    message: 'Your second factors are not in a state that allows this; reload and try again.',
  },
  queue_name_taken: { status: 409, message: 'A queue of this project already has this name.' },
  queue_in_use: {
    status: 409,
    message: 'Subscriptions read from this queue; delete them first. Nothing was changed.',
  },
  quota_exceeded: {
    status: 409,
    message: 'This request would go past a quota (see `quota`); nothing was changed.',
  },
  precondition_failed: { status: 412, message: 'If-Match does not name the current ETag; nothing changed.' },
  payload_too_large: { status: 413, message: 'The request body is larger than this endpoint accepts.' },
  too_many_requests: { status: 429, message: 'Too many requests; retry after the time in Retry-After.' },
  internal_error: { status: 500, message: 'Internal error.' },
  unavailable: { status: 503, message: 'The service is temporarily unavailable; retry after the time in Retry-After.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

const issue = z.object({
  path: z.string().meta({ description: 'Dotted path of the field, "" for the body itself.' }),
  message: z.string(),
});
/** The spec's quota object: what refused a `quota_exceeded` request (queues per project, a subscription's backlog). */
const quota = z.object({
  id: z.string(),
  kind: z.enum(['allocation', 'rate', 'usage', 'concurrency']),
  limit: z.int().min(0),
  scope: z.enum(['organization', 'project', 'resource']),
  inFlight: z.int().min(0).optional(),
  periodStart: z.iso.datetime().optional(),
  region: z.string().optional(),
  resetsAt: z.iso.datetime().optional(),
  scopeResourceName: z.string().optional(),
  used: z.int().min(0).optional(),
  window: z.string().optional(),
});
export const errorEnvelope = z
  .object({
    error: z.object({
      code: z
        .string()
        .max(64)
        .regex(/^[a-z][a-z0-9_]*$/),
      message: z.string().max(1024),
      issues: z.array(issue).optional(),
      quota: quota.optional(),
    }),
  })
  .meta({ id: 'Error' });

export type Issue = z.infer<typeof issue>;
export type Quota = z.infer<typeof quota>;
export type ErrorBody = z.infer<typeof errorEnvelope>;

type ApiErrorOptions = { issues?: Issue[]; headers?: Record<string, string>; quota?: Quota };

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
    this.status = ERROR_CODES[code].status;
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

/** What a 404 says of an id a request gave, as it gave it: `No API key 3f1c… in this organization.` */
export const missingIdMessage = (noun: string, id: string, where: 'organization' | 'project' = 'organization') =>
  `No ${noun} ${id} in this ${where}.`;

/** The 404 that names the id it could not find (`missingIdMessage`). */
export const idNotFound = (noun: string, id: string, where: 'organization' | 'project' = 'organization') =>
  notFound(missingIdMessage(noun, id, where));

/** 409 `quota_exceeded` for an allocation quota: how many the scope holds against its limit. */
export const allocationQuotaExceeded = (message: string, quota: Omit<Quota, 'kind'>) =>
  new ApiError('quota_exceeded', message, { quota: { ...quota, kind: 'allocation' } });
