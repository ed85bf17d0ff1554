import type { NextRequest } from 'next/server';
import { auditSource } from '../audit/source';
import type { AuditSource } from '../db/audit-types';
import type { Principal } from '../auth/principal';
import type { Permission } from '../permissions';
import { hasPermission } from '../auth/service';
import { admitCaller, headerCredential } from '../pipeline/authenticate';
import { checkOrganizationRefusals } from '../pipeline/hooks';
import { admitKeyRequest } from '../pipeline/key-refusals';
import { checkNeeds } from '../pipeline/needs';
import { MAX_BODY_BYTES, readBody } from '../http/body';
import { ApiError, notFound, type Issue } from '../errors';
import { parseJsonBody } from '../http/json-body';
import type { Operation } from '../pipeline/operation';
import { answerError, serve, type Protocol, type RequestLabel } from '../http/request';
import { resolveTenant } from '../pipeline/route';
import { validateInput } from '../http/validate';
import type { SilenceScope } from '../silences/service';
import { alertmanagerRefusal, whyOperationNeeds } from './refusals';

/** One Alertmanager operation: the /v1 operation shape (project-scoped and bearer-only, see operations.ts). */
export type AmOperation = Operation;

export type AmContext = {
  req: NextRequest;
  params: Record<string, string>;
  body: unknown;
  /** The body as sent, for an operation that reads it itself (`rawBody`). */
  bodyText: string;
  principal: Principal;
  scope: SilenceScope;
  /** Throws 403 unless the caller has the permission on the project; `why` says why this request needs it. */
  authorize: (permission: Permission, why?: string) => Promise<void>;
  audit: AuditSource;
};

export type AmHandler = (ctx: AmContext) => Promise<Response>;

/** Every answer, errors too, is JSON: Alertmanager's clients parse the body of each. */
export function amJson(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  });
}

/** Issues as one line, the way Alertmanager words a validation error: `path: message; …`. */
export const issuesMessage = (issues: Issue[]) =>
  issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');

/** Alertmanager's error body is a JSON string; 401 also names the schemes Grafana and amtool can send. */
const alertmanager: Protocol = {
  name: 'alertmanager',
  known: (err) => {
    if (!(err instanceof ApiError)) return null;
    const message = err.issues?.length ? issuesMessage(err.issues) : err.message;
    const challenge: Record<string, string> =
      err.status === 401 ? { 'www-authenticate': 'Basic realm="alertmanager", Bearer' } : {};
    return amJson(message, err.status, { ...err.headers, ...challenge });
  },
  failure: (failure, requestId) =>
    amJson(
      failure === 'unavailable'
        ? 'the database is unavailable; retry after the time in Retry-After'
        : `internal error; the server log has the details under request ID ${requestId}`,
      failure === 'unavailable' ? 503 : 500,
    ),
};

export const serveAlertmanager = (run: (requestId: string) => Promise<Response>, at: RequestLabel) =>
  serve(alertmanager, run, at);
export const alertmanagerError = (err: unknown, requestId: string) => answerError(alertmanager, err, requestId);

/**
 * The checks of a /v1 route in the same order (413 → 401 → 429 → 404 tenant → 403 the organization's second-factor
 * policy → 403 permission → 400 body), with the credential read from `Authorization` only: this family takes no
 * cookie, so it has no origin to check.
 */
export async function runAlertmanagerOperation(
  op: AmOperation,
  handler: AmHandler,
  req: NextRequest,
  rawParams: Record<string, string>,
  requestId: string,
): Promise<Response> {
  const bodyText = await readBody(req, op.maxBodyBytes ?? MAX_BODY_BYTES);
  const { principal, retryAfter } = await admitCaller(req, headerCredential);
  admitKeyRequest(principal, req.headers);
  if (retryAfter !== null)
    throw new ApiError('too_many_requests', undefined, { headers: { 'retry-after': String(retryAfter) } });

  const params = op.params ? op.params.safeParse(rawParams) : { success: true as const, data: rawParams };
  if (!params.success) throw notFound(op.path.includes('{silenceID}') ? 'silence not found' : 'not found');
  const tenant = await resolveTenant(op, principal, rawParams);
  if (!tenant?.project) throw notFound('project not found');
  const scope = { organizationId: tenant.organizationId, projectId: tenant.project.id };
  // The organization's own refusals (its second-factor policy), as on every /v1 route of the organization.
  await checkOrganizationRefusals(principal, scope.organizationId);

  const can = (permission: Permission) => hasPermission(principal, permission, scope);
  // Each refusal names what is missing and the fix, and why when the operation is one a command makes unasked.
  const refusal = (permission: Permission, why = whyOperationNeeds(op)) =>
    alertmanagerRefusal(principal, permission, scope, why);
  const authorize = async (permission: Permission, why?: string) => {
    if (!(await can(permission))) throw await refusal(permission, why);
  };
  await checkNeeds(op, principal, params.data as Record<string, string>, can, (p) => refusal(p));

  let body: unknown;
  if (op.body && !op.rawBody) {
    const parsed = validateInput(op.body, parseJsonBody(bodyText, op.body));
    if (!parsed.success) throw new ApiError('invalid_request', undefined, { issues: parsed.issues });
    body = parsed.data;
  }
  return handler({
    req,
    params: params.data as Record<string, string>,
    body,
    bodyText: bodyText ?? '',
    principal,
    scope,
    authorize,
    audit: auditSource({ principal, req, requestId }),
  });
}
