import { z } from 'zod';

export const queueParams = z.object({ orgId: z.uuid(), projectId: z.uuid(), queueId: z.uuid() });

export const RETENTION_SECONDS = { min: 60, max: 1_209_600, default: 345_600 } as const;

const QUEUE_NAME = /^[a-z][a-z0-9-]{0,62}$/;

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
    slug: z.string().regex(/^que_[a-z0-9]{12}$/),
    resourceName: z.string().meta({ example: 'organizations/{orgId}/projects/{projectId}/queues/{id}' }),
    retentionSeconds: z.int().min(RETENTION_SECONDS.min).max(RETENTION_SECONDS.max),
    createdAt: dateTime,
    updatedAt: dateTime,
  })
  .meta({ id: 'Queue' });
export type Queue = z.infer<typeof queue>;
