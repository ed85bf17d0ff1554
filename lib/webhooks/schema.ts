import { z } from 'zod';
import { uuidIdParam } from '../short-ids';
import { actionNoun, WEBHOOK_EVENTS } from '../audit-actions';
import { pageQuery } from '../http/pagination';
import { MAX_TARGET_URL_LENGTH } from '../delivery/target-url';
import { targetUrlProblem } from '../delivery/address';

export const webhookParams = z.object({ orgId: z.uuid(), webhookId: uuidIdParam('webhook') });
export const attemptParams = webhookParams.extend({ deliveryId: z.uuid() });

export const webhookUrl = z
  .string({ error: 'The URL must be a string.' })
  .max(MAX_TARGET_URL_LENGTH, { error: `The URL must be at most ${MAX_TARGET_URL_LENGTH} characters.`, abort: true })
  .superRefine((value, ctx) => {
    const problem = targetUrlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const NOUNS = new Set(WEBHOOK_EVENTS.map(actionNoun));

/** One event (an audit action, or an alert's transition), every event of a noun (`api_key.*`), or `*`. */
const webhookEvent = z
  .string()
  .refine(
    (value) =>
      value === '*' || WEBHOOK_EVENTS.includes(value) || (value.endsWith('.*') && NOUNS.has(actionNoun(value))),
    { error: 'Use an event such as `api_key.revoked` or `alert.firing`, a noun such as `api_key.*`, or `*`.' },
  )
  .meta({
    description:
      'An audit action (`api_key.revoked`), an alert transition (`alert.firing`, `alert.resolved`), every event of a noun (`api_key.*`, `alert.*`), or `*` (every event).',
  });

/** Events or noun patterns, or `*` for every event; each at most once. */
export const webhookEvents = z
  .array(webhookEvent)
  .min(1, { error: 'Choose at least one event.' })
  .max(50, { error: 'At most 50 event patterns.' })
  .refine((events) => new Set(events).size === events.length, { error: 'Each event pattern may appear once.' });

const description = z.string({ error: 'The description must be a string.' }).max(500, {
  error: 'The description must be at most 500 characters.',
});

export const createWebhookBody = z
  .strictObject({ url: webhookUrl, events: webhookEvents, description: description.optional() })
  .meta({ id: 'WebhookCreate' });

export const updateWebhookBody = z
  .strictObject({
    url: webhookUrl.optional(),
    events: webhookEvents.optional(),
    description: description.optional(),
    enabled: z.boolean({ error: 'enabled must be true or false.' }).optional(),
  })
  .meta({ id: 'WebhookUpdate' });

export type CreateWebhookBody = z.infer<typeof createWebhookBody>;
export type UpdateWebhookBody = z.infer<typeof updateWebhookBody>;

const dateTime = z.iso.datetime();

export const webhook = z
  .object({
    id: z.uuid(),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string(),
    enabled: z.boolean(),
    disabledReason: z.string().nullable().meta({ description: 'Why the service disabled it, when it did.' }),
    createdAt: dateTime,
  })
  .meta({ id: 'Webhook' });

export const signingSecret = z
  .string()
  .regex(/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/)
  .meta({ description: 'The Standard Webhooks signing secret, shown once.' });

export const createdWebhook = z.object({ webhook, secret: signingSecret }).meta({ id: 'CreatedWebhook' });
export const rotatedSecret = z.object({ secret: signingSecret }).meta({ id: 'RotatedWebhookSecret' });

export const webhookAttempt = z
  .object({
    id: z.uuid(),
    messageId: z.uuid().meta({ description: 'The `webhook-id` header: the same on every attempt of a message.' }),
    eventType: z.string(),
    attempt: z.int().min(1),
    status: z.int().nullable().meta({ description: 'The HTTP status the receiver answered; null when none came.' }),
    durationMs: z.int().min(0),
    error: z.string().optional(),
    at: dateTime,
    nextAttemptAt: dateTime.optional().meta({ description: 'When the next retry is due, if one is.' }),
  })
  .meta({ id: 'WebhookDelivery' });

export const listWebhooksQuery = pageQuery;

export type Webhook = z.infer<typeof webhook>;
export type WebhookAttempt = z.infer<typeof webhookAttempt>;
