import type { AuditAction } from '../audit-actions';

export type AuditActorType = 'user' | 'bot' | 'system' | 'identity_provider' | 'secret_scanner';

/** Who did it. `credential` is a display prefix (`svc_ab12…`), never a secret. */
export type AuditActor = {
  type: AuditActorType;
  id: string | null;
  name: string;
  via: 'session' | 'api_key' | 'oauth' | 'scim' | null;
  credential: string | null;
};

/** What it was done to. `type` is the noun of the resource (`api_key`, `subscription`, `user`, …). */
export type AuditTarget = { type: string; id: string; name: string };

/** One changed field of an update; dotted paths (`target.url`). */
export type AuditChange = { field: string; from: unknown; to: unknown };

/** Where the request came from. `url`: where a leaked credential was found (leak reports only). */
export type AuditContext = {
  requestId: string | null;
  ip: string | null;
  userAgent: string | null;
  url?: string | null;
  /** The `createdBy` an Alertmanager client sent: kept for the record, never trusted as the author. */
  createdBy?: string | null;
};

/** Who and from where: everything an event takes from the request rather than from the change. */
export type AuditSource = { actor: AuditActor; context: AuditContext };

/** What a service hands `recordAuditEvent`: the change; id, seq, time and hash are the log's. */
export type AuditEventInput = AuditSource & {
  organizationId: string;
  action: AuditAction;
  target: AuditTarget;
  projectId?: string | null;
  changes?: AuditChange[];
  reason?: string | null;
};

/** An event as stored and served (PRODUCT.md "Audit log"). */
export type AuditEvent = {
  id: string;
  seq: number;
  occurredAt: string;
  action: AuditAction;
  actor: AuditActor;
  target: AuditTarget;
  projectId: string | null;
  changes: AuditChange[];
  reason: string | null;
  context: AuditContext;
};
