import { z } from 'zod';

/** Alertmanager 0.25's matcher: `isEqual` defaults to true, as its own server and amtool read it. */
export const amMatcher = z
  .object({
    name: z.string(),
    value: z.string(),
    isRegex: z.boolean(),
    isEqual: z.boolean().default(true),
  })
  .meta({ id: 'AlertmanagerMatcher' });
export type AmMatcher = z.output<typeof amMatcher>;

/**
 * A posted silence. Fields Alertmanager's clients send that this project does not take (`status`,
 * `updatedAt`, `annotations`) pass through unread; `createdBy` is kept only for the audit event.
 */
export const postableSilence = z
  .looseObject({
    id: z.string().optional(),
    matchers: z.array(amMatcher),
    startsAt: z.string().meta({ format: 'date-time' }),
    endsAt: z.string().meta({ format: 'date-time' }),
    createdBy: z.string(),
    comment: z.string(),
  })
  .meta({ id: 'AlertmanagerPostableSilence' });
export type PostableSilence = z.output<typeof postableSilence>;

export const AM_STATES = ['pending', 'active', 'expired'] as const;

export const gettableSilence = z
  .object({
    id: z.uuid(),
    status: z.object({ state: z.enum(AM_STATES) }),
    updatedAt: z.iso.datetime(),
    matchers: z.array(amMatcher),
    startsAt: z.iso.datetime(),
    endsAt: z.iso.datetime(),
    createdBy: z.string(),
    comment: z.string(),
  })
  .meta({ id: 'AlertmanagerGettableSilence' });
export type GettableSilence = z.output<typeof gettableSilence>;

export const postSilenceAnswer = z.object({ silenceID: z.uuid() }).meta({ id: 'AlertmanagerSilenceID' });

export const amStatus = z
  .object({
    cluster: z.object({
      status: z.enum(['ready', 'settling', 'disabled']),
      peers: z.array(z.object({ name: z.string(), address: z.string() })),
      name: z.string(),
    }),
    versionInfo: z.object({
      branch: z.string(),
      buildDate: z.string(),
      buildUser: z.string(),
      goVersion: z.string(),
      revision: z.string(),
      version: z.string(),
    }),
    config: z.object({ original: z.string() }),
    uptime: z.iso.datetime(),
  })
  .meta({ id: 'AlertmanagerStatus' });

/** Alertmanager's error body: a JSON string, never the /v1 envelope. */
export const amError = z.string().meta({ id: 'AlertmanagerError', example: 'silence not found' });

const labelSet = z.record(z.string(), z.string());

/** One alert of `POST /alerts`, as Alertmanager 0.25's schema has it; the handler reads the body itself. */
export const postableAlert = z
  .object({
    labels: labelSet,
    annotations: labelSet.optional(),
    startsAt: z.string().meta({ format: 'date-time' }).optional(),
    endsAt: z.string().meta({ format: 'date-time' }).optional(),
    generatorURL: z.string().meta({ format: 'uri' }).optional(),
  })
  .meta({ id: 'AlertmanagerPostableAlert' });

export const AM_ALERT_STATES = ['unprocessed', 'active', 'suppressed'] as const;

export const gettableAlert = z
  .object({
    labels: labelSet,
    annotations: labelSet,
    startsAt: z.iso.datetime(),
    endsAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    generatorURL: z.string().optional(),
    fingerprint: z.string(),
    receivers: z.array(z.object({ name: z.string() })),
    status: z.object({
      state: z.enum(AM_ALERT_STATES),
      silencedBy: z.array(z.string()),
      inhibitedBy: z.array(z.string()),
    }),
  })
  .meta({ id: 'AlertmanagerGettableAlert' });
export type GettableAlert = z.output<typeof gettableAlert>;

export const alertGroup = z
  .object({ labels: labelSet, receiver: z.object({ name: z.string() }), alerts: z.array(gettableAlert) })
  .meta({ id: 'AlertmanagerAlertGroup' });
export type AlertGroup = z.output<typeof alertGroup>;
