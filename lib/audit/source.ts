import { clientAddress } from '../http/public-origin';
import type { AuditActor, AuditContext, AuditSource } from '../db/audit-types';

const USER_AGENT_MAX = 512;

/** The caller of a request as the audit log names it; lib/auth/principal.ts's Principal is one. */
export type AuditedCaller = {
  type: 'user' | 'bot';
  id: string;
  name: string;
  via: 'session' | 'api_key' | 'oauth';
  apiKeyPrefix?: string;
};

/** The request's part of an event: its id, the client address and user agent. */
export function auditContext(req: Pick<Request, 'headers'> | null, requestId: string | null): AuditContext {
  return {
    requestId,
    ip: req ? clientAddress(req.headers) : null,
    userAgent: req?.headers.get('user-agent')?.slice(0, USER_AGENT_MAX) ?? null,
  };
}

/** A display prefix as events show it (`svc_ab12…`): enough to recognise the credential, never the secret. */
export function credentialLabel(prefix: string): string {
  return `${prefix}…`;
}

/** The caller of an authenticated request: a user or bot, and the credential it used. */
export function principalActor(principal: AuditedCaller): AuditActor {
  return {
    type: principal.type,
    id: principal.id,
    name: principal.name,
    via: principal.via,
    credential: principal.apiKeyPrefix ? credentialLabel(principal.apiKeyPrefix) : null,
  };
}

/** A user acting by session outside `/v1` (sign-in, device approval). */
export function userActor(user: { id: string; name: string }, via: AuditActor['via'] = 'session'): AuditActor {
  return { type: 'user', id: user.id, name: user.name, via, credential: null };
}

/** The identity provider acting over SCIM with one of the organization's SCIM tokens. */
export function identityProviderActor(token: { id: string; prefix: string }): AuditActor {
  return {
    type: 'identity_provider',
    id: token.id,
    name: 'SCIM',
    via: 'scim',
    credential: credentialLabel(token.prefix),
  };
}

/** The service itself (housekeeping, a roll's grace period ending). */
export const SYSTEM_ACTOR: AuditActor = { type: 'system', id: null, name: 'system', via: null, credential: null };

/** A secret scanning partner reporting a leak. */
export function secretScannerActor(name: string): AuditActor {
  return { type: 'secret_scanner', id: null, name, via: null, credential: null };
}

/** Who and from where, for a `/v1` handler: `auditSource(ctx)` with the route context. */
export function auditSource(ctx: {
  principal: AuditedCaller;
  req: Pick<Request, 'headers'>;
  requestId: string;
}): AuditSource {
  return { actor: principalActor(ctx.principal), context: auditContext(ctx.req, ctx.requestId) };
}
