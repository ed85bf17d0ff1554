import { z } from 'zod';
import { httpsUrlProblem, MAX_TARGET_URL_LENGTH } from '../delivery/target-url';

export const subscriptionParams = z.object({ orgId: z.uuid(), projectId: z.uuid(), subscriptionId: z.uuid() });

export const BATCH_SIZE = { min: 1, max: 10 } as const;
export const MAX_CONCURRENCY = { min: 1, max: 100 } as const;
export const TIMEOUT_SECONDS = { min: 1, max: 60 } as const;

const wholeNumber = (what: string, { min, max }: { min: number; max: number }) => {
  const message = `${what} must be a whole number from ${min} to ${max}.`;
  return z.int({ error: message }).min(min, { error: message }).max(max, { error: message });
};

export const httpsUrl = z
  .string({ error: 'The URL must be a string.' })
  .max(MAX_TARGET_URL_LENGTH, { error: `The URL must be at most ${MAX_TARGET_URL_LENGTH} characters.`, abort: true })
  .superRefine((value, ctx) => {
    const problem = httpsUrlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
export const timeoutSeconds = wholeNumber('The timeout', TIMEOUT_SECONDS);
export const workflowId = z.uuid({ error: 'The workflow ID must be a UUID.' });

/** A complete target of each kind this API knows; the stored target after a merge must satisfy it. */
export const httpsTarget = z
  .object({ kind: z.literal('https'), url: httpsUrl, timeoutSeconds })
  .meta({ id: 'HttpsTarget' });
export const workflowTarget = z.object({ kind: z.literal('workflow'), workflowId }).meta({ id: 'WorkflowTarget' });
const unknownTarget = z.looseObject({ kind: z.string() }).meta({
  id: 'UnknownTarget',
  description: 'A target of a kind this version does not know; clients show it as unknown.',
});

const targetKindError = {
  error: 'The target kind must be "https" or "workflow", the kind the subscription already has.',
};

/** The `target` of a PATCH: a kind (which must equal the current one) and only the fields to change. */
export const targetPatch = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('https'), url: httpsUrl.optional(), timeoutSeconds: timeoutSeconds.optional() }),
    z.strictObject({ kind: z.literal('workflow'), workflowId: workflowId.optional() }),
  ],
  targetKindError,
);

/** The body of "Change a subscription": every field optional, unknown and fixed fields refused at their path. */
export const updateSubscriptionBody = z
  .strictObject({
    batchSize: wholeNumber('The batch size', BATCH_SIZE).optional(),
    maxConcurrency: wholeNumber('The maximum concurrency', MAX_CONCURRENCY).optional(),
    target: targetPatch.optional(),
  })
  .meta({ id: 'SubscriptionUpdate' });

const dateTime = z.iso.datetime();

export const deliveryError = z
  .object({ at: dateTime, class: z.string(), message: z.string(), status: z.int() })
  .meta({ id: 'DeliveryError' });

export const subscription = z
  .object({
    id: z.uuid(),
    organizationId: z.uuid(),
    projectId: z.uuid(),
    queueId: z.uuid(),
    resourceName: z.string(),
    slug: z.string().regex(/^qsb_[a-z0-9]{12}$/),
    state: z.enum(['active', 'paused']),
    batchSize: z.int().min(1).max(10),
    maxConcurrency: z.int().min(1).max(100),
    target: z.union([httpsTarget, workflowTarget, unknownTarget]),
    status: z.object({
      health: z.string().meta({ description: '`healthy` or `failing`; clients treat other values as unknown.' }),
      lastError: deliveryError.nullable(),
      lastSuccessAt: dateTime.nullable(),
    }),
    createdAt: dateTime,
    updatedAt: dateTime,
  })
  .meta({ id: 'Subscription' });

export type Subscription = z.infer<typeof subscription>;
export type SubscriptionTargetPatch = z.infer<typeof targetPatch>;
export type SubscriptionUpdate = z.infer<typeof updateSubscriptionBody>;
