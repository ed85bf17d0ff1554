import { z } from 'zod';
import { atMostCharacters } from '../characters';
import { resourceIdParam, shortIdPattern } from '../short-ids';

export const queueParams = z.object({ orgId: z.uuid(), projectId: z.uuid(), queueId: resourceIdParam('queue') });

export const RETENTION_SECONDS = { min: 60, max: 1_209_600, default: 345_600 } as const;
export const MAX_MESSAGES_PER_PUBLISH = 100;
export const MAX_MESSAGE_BODY_BYTES = 128 * 1024;
export const MAX_ATTRIBUTES = 16;
export const MAX_ATTRIBUTE_VALUE_CHARACTERS = 256;
export const MAX_DELAY_SECONDS = 900;

const QUEUE_NAME = /^[a-z][a-z0-9-]{0,62}$/;
const ATTRIBUTE_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** A whole number in a range, one message for every way to miss it (a float, a string, out of range). */
const wholeSeconds = (what: string, min: number, max: number) => {
  const message = `${what} must be a whole number of seconds from ${min} to ${max}.`;
  return z.int({ error: message }).min(min, { error: message }).max(max, { error: message });
};

export const queueName = z
  .string({ error: 'The name must be a string.' })
  .regex(QUEUE_NAME, 'The name is 1 to 63 lowercase letters, digits and hyphens, and starts with a letter.');
export const retentionSeconds = wholeSeconds('The retention', RETENTION_SECONDS.min, RETENTION_SECONDS.max);

/** The body of "Create a queue", shared by the route and the console's form. */
export const createQueueBody = z
  .strictObject({
    name: queueName,
    retentionSeconds: retentionSeconds.optional().meta({
      description: 'How long a message is kept for a subscription that has not taken it; default 345600 (four days).',
    }),
  })
  .meta({ id: 'QueueCreate' });
export type CreateQueueBody = z.output<typeof createQueueBody>;

/** The body of "Change a queue": only the retention changes; the name is fixed. */
export const updateQueueBody = z.strictObject({ retentionSeconds }).meta({ id: 'QueueUpdate' });
export type UpdateQueueBody = z.output<typeof updateQueueBody>;

const dateTime = z.iso.datetime();

export const queue = z
  .object({
    id: z.uuid(),
    organizationId: z.uuid(),
    projectId: z.uuid(),
    name: z.string().regex(QUEUE_NAME),
    slug: z.string().regex(shortIdPattern('que')),
    resourceName: z.string().meta({ example: 'organizations/{orgId}/projects/{projectId}/queues/{id}' }),
    retentionSeconds: z.int().min(RETENTION_SECONDS.min).max(RETENTION_SECONDS.max),
    createdAt: dateTime,
    updatedAt: dateTime,
  })
  .meta({ id: 'Queue' });
export type Queue = z.infer<typeof queue>;

/** Bytes of a JSON value as stored and delivered: its JSON text in UTF-8. */
export const jsonBytes = (value: unknown): number => new TextEncoder().encode(JSON.stringify(value) ?? '').length;

const messageBody = z
  .unknown()
  .superRefine((value, ctx) => {
    if (value === undefined) ctx.addIssue({ code: 'custom', message: 'A message needs a body: any JSON value.' });
    else if (jsonBytes(value) > MAX_MESSAGE_BODY_BYTES)
      ctx.addIssue({ code: 'custom', message: `The body must be at most ${MAX_MESSAGE_BODY_BYTES} bytes as JSON.` });
  })
  .meta({ description: `Any JSON value, at most ${MAX_MESSAGE_BODY_BYTES} bytes (128 KiB) as JSON text in UTF-8.` });

const ATTRIBUTE_NAME_RULE = 'An attribute name is 1 to 64 letters, digits, `_`, `.` and `-`.';
const isObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);

const attributes = z
  .record(
    z.string().regex(ATTRIBUTE_NAME),
    atMostCharacters(
      z.string({ error: 'An attribute value must be a string.' }),
      MAX_ATTRIBUTE_VALUE_CHARACTERS,
      `An attribute value is at most ${MAX_ATTRIBUTE_VALUE_CHARACTERS} characters.`,
    ),
    {
      error: (issue) =>
        issue.code === 'invalid_key' ? ATTRIBUTE_NAME_RULE : 'The attributes are an object of strings.',
    },
  )
  // Counted even when a value is refused too, so every problem is said at once.
  .refine((pairs) => Object.keys(pairs).length <= MAX_ATTRIBUTES, {
    message: `At most ${MAX_ATTRIBUTES} attributes.`,
    when: (payload) => isObject(payload.value),
  })
  .meta({
    description: `At most ${MAX_ATTRIBUTES} pairs; names \`[A-Za-z0-9_.-]{1,64}\`, values at most ${MAX_ATTRIBUTE_VALUE_CHARACTERS} characters.`,
    maxProperties: MAX_ATTRIBUTES,
  });

export const outgoingMessage = z
  .strictObject({
    body: messageBody,
    attributes: attributes.optional(),
    delaySeconds: wholeSeconds('The delay', 0, MAX_DELAY_SECONDS)
      .optional()
      .meta({ description: 'Seconds before the message may be delivered (default 0).' }),
  })
  .meta({ id: 'OutgoingMessage' });

/** The body of "Publish messages": 1 to 100 messages, stored all or none. */
export const publishBody = z
  .strictObject({
    messages: z
      .array(outgoingMessage, { error: 'The messages must be an array.' })
      .min(1, `Send 1 to ${MAX_MESSAGES_PER_PUBLISH} messages.`)
      .max(MAX_MESSAGES_PER_PUBLISH, `Send 1 to ${MAX_MESSAGES_PER_PUBLISH} messages.`),
  })
  .meta({ id: 'PublishMessages' });
export type PublishBody = z.output<typeof publishBody>;
export type OutgoingMessage = PublishBody['messages'][number];

export const published = z
  .object({ messageIds: z.array(z.uuid()).meta({ description: 'One per message, in the request’s order.' }) })
  .meta({ id: 'PublishedMessages' });
