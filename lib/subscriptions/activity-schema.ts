import { z } from 'zod';
import { deliveryError, subscriptionParams } from './schema';

const dateTime = z.iso.datetime();
const count = z.int().min(0);

export const deadLetterParams = subscriptionParams.extend({ messageId: z.uuid() });

/** At most this many ids in one redrive: one transaction, one event. */
export const MAX_REDRIVE_IDS = 1000;

export const deadLetter = z
  .object({
    messageId: z.uuid(),
    body: z.unknown().meta({ description: 'The message body as published: any JSON value.' }),
    attributes: z.record(z.string(), z.string()),
    publishedAt: dateTime,
    attempts: count.meta({ description: 'Failed attempts before it was dead-lettered.' }),
    lastError: deliveryError.nullable(),
    deadLetteredAt: dateTime,
  })
  .meta({ id: 'DeadLetter' });

export const redriveBody = z
  .strictObject({
    messageIds: z
      .array(z.uuid({ error: 'Each message ID must be a UUID.' }), { error: 'messageIds must be a list of IDs.' })
      .max(MAX_REDRIVE_IDS, { error: `At most ${MAX_REDRIVE_IDS} message IDs per request; leave it out for all.` })
      .optional()
      .meta({ description: 'The dead letters to redrive; absent: every one.' }),
  })
  .meta({ id: 'DeadLetterRedrive' });

export const redriveResult = z
  .object({ redriven: count.meta({ description: 'How many dead letters became pending again.' }) })
  .meta({ id: 'DeadLetterRedriveResult' });

export const activityMinute = z.object({
  at: dateTime.meta({ description: 'The start of the minute (UTC).' }),
  delivered: count,
  failed: count,
  deadLettered: count,
  expired: count,
});

export const subscriptionActivity = z
  .object({
    backlog: z.object({
      ready: count,
      delayed: count.meta({ description: 'Waiting for a retry or a publish delay.' }),
      inFlight: count,
      deadLettered: count,
      oldestReadyAt: dateTime.nullable().meta({ description: 'When the oldest ready message was published.' }),
    }),
    minutes: z.array(activityMinute).length(60).meta({
      description:
        'The last 60 minutes, oldest first, the current one last: every minute, zeros where nothing happened.',
    }),
  })
  .meta({ id: 'SubscriptionActivity' });

export const subscriptionDelivery = z
  .object({
    id: z.uuid().meta({ description: 'The `webhook-id` of the request.' }),
    startedAt: dateTime,
    messages: count,
    outcome: z.string().meta({
      description:
        '`in_flight`, `delivered`, `partial`, `failed`, `paused` (the target answered 410), `released` (handed back unsent) or `abandoned` (no outcome recorded before its lease ran out: its instance stopped or lost the database; its messages went out again); clients treat other values as unknown.',
    }),
    status: z.int().nullable().meta({ description: 'The HTTP status the target answered; null when none came.' }),
    durationMs: z.int().min(0).nullable(),
    errorClass: z.string().nullable(),
    errorMessage: z.string().nullable(),
  })
  .meta({ id: 'SubscriptionDelivery' });

export type DeadLetter = z.infer<typeof deadLetter>;
export type SubscriptionActivity = z.infer<typeof subscriptionActivity>;
export type SubscriptionDelivery = z.infer<typeof subscriptionDelivery>;
