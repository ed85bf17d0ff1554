import type { NextRequest } from 'next/server';
import { auditSource } from '../audit/source';
import type { AuditSource } from '../db/audit-types';
import type { Principal } from '../auth/principal';
import type { Permission } from '../permissions';
import { authorizationHeader } from '../pipeline/credentials';
import { ApiError, type Issue } from '../errors';
import type { Operation } from '../pipeline/operation';
import type { Door, Passed } from '../pipeline/pipeline';
import { answerError, serve, type Protocol, type RequestLabel } from '../http/request';
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
 * The family's door into the pipeline (lib/pipeline/pipeline.ts), which runs its checks as on /v1: the credential
 * from `Authorization` only (this family takes no cookie, so it has no origin to check), Alertmanager's error
 * format, and refusals that name what is missing, the fix, and why when a command needs it unasked.
 */
export function alertmanagerDoor(op: AmOperation): Door<Principal> {
  return {
    protocol: alertmanager,
    credential: authorizationHeader,
    operation: op,
    paramMissing: op.path.includes('{silenceID}') ? 'silence not found' : 'not found',
    refusal: (principal, permission, scope) =>
      alertmanagerRefusal(principal, permission, projectScope(scope), whyOperationNeeds(op)),
    validateQuery: false,
  };
}

/** The family's operations are all project-scoped (operations.ts), so the pipeline's tenant names a project. */
function projectScope(where: { organizationId: string; projectId: string | null }): SilenceScope {
  if (!where.projectId) throw new Error('Alertmanager operations are project-scoped');
  return { organizationId: where.organizationId, projectId: where.projectId };
}

/** What the family's handlers get once the pipeline passed a request. */
export function alertmanagerContext(op: AmOperation, passed: Passed<Principal>, req: NextRequest): AmContext {
  const { caller: principal, tenant, requestId } = passed;
  if (!tenant) throw new Error('Alertmanager operations are project-scoped');
  const scope = projectScope({ organizationId: tenant.organizationId, projectId: tenant.project?.id ?? null });
  return {
    req,
    params: passed.params as Record<string, string>,
    body: passed.body,
    bodyText: passed.raw.text ?? '',
    principal,
    scope,
    authorize: async (permission, why) => {
      if (!(await passed.can(permission)))
        throw await alertmanagerRefusal(principal, permission, scope, why ?? whyOperationNeeds(op));
    },
    audit: auditSource({ principal, req, requestId }),
  };
}
