import { z } from 'zod';
import { pageQuery } from '../http/pagination';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES, actionNoun } from '../audit-actions';

const NOUNS = new Set(AUDIT_ACTIONS.map(actionNoun));

/** One action, or every action of a noun (`api_key.*`). */
export const actionFilter = z
  .string()
  .refine(
    (value) =>
      (AUDIT_ACTIONS as readonly string[]).includes(value) || (value.endsWith('.*') && NOUNS.has(actionNoun(value))),
    { message: 'Use an action such as `api_key.revoked`, or a noun with `.*` such as `api_key.*`.' },
  );

/** The filters shared by the list and the export. */
export const auditEventsFilter = z.object({
  // An id or a display prefix, nothing else: free text here would hide a mistyped filter behind an empty page.
  actor: z
    .union([z.uuid(), z.string().regex(/^svc_[0-9A-Za-z]{4}$/)], {
      error: 'The actor is a user, bot or SCIM token id, or an API key prefix such as svc_ab12.',
    })
    .optional()
    .meta({ description: 'The actor’s id (user, bot, SCIM token), or an API key prefix (`svc_ab12`).' }),
  action: z
    .array(actionFilter)
    .max(30)
    .optional()
    .meta({ description: 'Repeatable: `action=api_key.revoked&action=member.removed`, or a noun: `api_key.*`.' }),
  // Closed sets, so a mistyped filter is a 400 rather than an empty page.
  targetType: z.enum(AUDIT_TARGET_TYPES).optional(),
  targetId: z.uuid().optional(),
  projectId: z.uuid().optional(),
  since: z.iso.datetime({ offset: true }).optional().meta({ description: 'Events at or after this instant.' }),
  until: z.iso.datetime({ offset: true }).optional().meta({ description: 'Events before this instant.' }),
});

export type AuditEventsFilter = z.output<typeof auditEventsFilter>;

export const listAuditEventsQuery = pageQuery.extend(auditEventsFilter.shape);
export type ListAuditEventsQuery = z.output<typeof listAuditEventsQuery>;

export const exportAuditEventsQuery = auditEventsFilter.extend({
  format: z.enum(['ndjson', 'csv']).default('ndjson'),
});
export type ExportAuditEventsQuery = z.output<typeof exportAuditEventsQuery>;

const auditActor = z.object({
  type: z.enum(['user', 'bot', 'system', 'identity_provider', 'secret_scanner']),
  id: z.string().nullable(),
  name: z.string(),
  via: z.enum(['session', 'api_key', 'oauth', 'scim']).nullable(),
  credential: z.string().nullable().meta({ description: 'A display prefix (`svc_ab12…`), never a secret.' }),
});

export const auditEvent = z
  .object({
    id: z.uuid(),
    seq: z.int().meta({ description: 'Grows by 1 per organization.' }),
    occurredAt: z.iso.datetime(),
    action: z.enum(AUDIT_ACTIONS),
    actor: auditActor,
    target: z.object({ type: z.string(), id: z.string(), name: z.string() }),
    projectId: z.uuid().nullable(),
    changes: z.array(z.object({ field: z.string(), from: z.unknown(), to: z.unknown() })),
    reason: z.string().nullable(),
    context: z.object({
      requestId: z.string().nullable(),
      ip: z.string().nullable(),
      userAgent: z.string().nullable(),
      url: z.string().nullable().optional(),
      createdBy: z.string().nullable().optional(),
    }),
  })
  .meta({ id: 'AuditEvent' });

export const auditEventsPage = z.object({ items: z.array(auditEvent), nextCursor: z.string().nullable() });

export const chainVerification = z
  .object({
    verified: z.int().meta({ description: 'Events whose hash checked out, from the oldest kept one.' }),
    firstBrokenSeq: z.int().nullable().meta({ description: 'The first seq that is missing, edited or out of place.' }),
  })
  .meta({ id: 'AuditChainVerification' });

export const auditVerificationParams = z.object({
  orgId: z.uuid(),
  verificationId: z.union([z.uuid(), z.literal('latest')]).meta({
    description: 'A verification’s id, or `latest` for the organization’s newest.',
  }),
});

export const auditVerification = z
  .object({
    id: z.uuid(),
    state: z.enum(['running', 'succeeded', 'failed']).meta({
      description:
        '`succeeded`: the walk reached the head (`firstBrokenSeq` says whether the chain holds); `failed`: it ' +
        'stopped (an error, or the instance running it stopped: see `error`).',
    }),
    verified: z
      .int()
      .meta({ description: 'Events checked so far, from the oldest kept one; when done, those that checked out.' }),
    total: z.int().meta({ description: 'Events from the oldest kept one to the head when the job started.' }),
    firstBrokenSeq: z.int().nullable().meta({ description: 'The first seq that is missing, edited or out of place.' }),
    error: z.string().nullable().meta({ description: 'Why a failed job stopped.' }),
    startedAt: z.iso.datetime(),
    finishedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'AuditVerification' });

export type AuditVerification = z.infer<typeof auditVerification>;
