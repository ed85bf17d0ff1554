import { z } from 'zod';
import { targetUrlProblem } from '../delivery/address';
import { MAX_TARGET_URL_LENGTH } from '../delivery/target-url';
import type { Issue } from '../errors';
import { resourceIdParam, shortIdPattern } from '../short-ids';
import { signingSecret } from '../webhooks/schema';

export const subscriptionParams = z.object({
  orgId: z.uuid(),
  projectId: z.uuid(),
  subscriptionId: resourceIdParam('subscription'),
});

export const BATCH_SIZE = { min: 1, max: 10 } as const;
export const MAX_CONCURRENCY = { min: 1, max: 100 } as const;
export const TIMEOUT_SECONDS = { min: 1, max: 60 } as const;
export const MAX_ATTEMPTS = { min: 1, max: 100 } as const;
export const MIN_BACKOFF_SECONDS = { min: 0, max: 600 } as const;
export const MAX_BACKOFF_SECONDS = { min: 1, max: 3600 } as const;
/** What a create leaves out: PRODUCT.md's defaults, and the seed's 30 s timeout. */
export const DEFAULTS = { batchSize: 10, maxConcurrency: 10, timeoutSeconds: 30 } as const;
export const DEFAULT_RETRY_POLICY = { maxAttempts: 5, minBackoffSeconds: 10, maxBackoffSeconds: 600 } as const;

const wholeNumber = (what: string, { min, max }: { min: number; max: number }) => {
  const message = `${what} must be a whole number from ${min} to ${max}.`;
  return z.int({ error: message }).min(min, { error: message }).max(max, { error: message });
};

/**
 * An https target URL; with `WEBHOOK_ALLOW_LOOPBACK=1` on the server a loopback literal too, over http as well.
 * The browser has no such switch, so the console's forms check the https rules alone.
 */
export const targetUrl = z
  .string({ error: 'The URL must be a string.' })
  .max(MAX_TARGET_URL_LENGTH, { error: `The URL must be at most ${MAX_TARGET_URL_LENGTH} characters.`, abort: true })
  .superRefine((value, ctx) => {
    const problem = targetUrlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
export const timeoutSeconds = wholeNumber('The timeout', TIMEOUT_SECONDS);
export const workflowId = z.uuid({ error: 'The workflow ID must be a UUID.' });

/** A complete target of each kind this API knows; the stored target after a merge must satisfy it. */
export const httpsTarget = z
  .object({ kind: z.literal('https'), url: targetUrl, timeoutSeconds })
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
    z.strictObject({ kind: z.literal('https'), url: targetUrl.optional(), timeoutSeconds: timeoutSeconds.optional() }),
    z.strictObject({ kind: z.literal('workflow'), workflowId: workflowId.optional() }),
  ],
  targetKindError,
);

const batchSize = wholeNumber('The batch size', BATCH_SIZE);
const maxConcurrency = wholeNumber('The maximum concurrency', MAX_CONCURRENCY);

const retryFields = {
  maxAttempts: wholeNumber('The maximum number of attempts', MAX_ATTEMPTS),
  minBackoffSeconds: wholeNumber('The minimum backoff', MIN_BACKOFF_SECONDS),
  maxBackoffSeconds: wholeNumber('The maximum backoff', MAX_BACKOFF_SECONDS),
};
export const retryPolicy = z.object(retryFields).meta({ id: 'RetryPolicy' });
export type RetryPolicy = z.infer<typeof retryPolicy>;

/** A create's or PATCH's `retryPolicy`: only the fields to set, merged over the current policy (the defaults on create). */
export const retryPolicyPatch = z
  .strictObject({
    maxAttempts: retryFields.maxAttempts.optional(),
    minBackoffSeconds: retryFields.minBackoffSeconds.optional(),
    maxBackoffSeconds: retryFields.maxBackoffSeconds.optional(),
  })
  .meta({ id: 'RetryPolicyPatch' });
export type RetryPolicyPatch = z.infer<typeof retryPolicyPatch>;

/**
 * The one rule between the policy's fields, on the merged policy: the minimum backoff may not exceed the maximum.
 * The issue names a field the request sent (the minimum when it sent both); none while a field is itself invalid.
 */
export function backoffIssue(merged: RetryPolicy, sent: RetryPolicyPatch): Issue | null {
  if (!retryPolicy.safeParse(merged).success || merged.minBackoffSeconds <= merged.maxBackoffSeconds) return null;
  return sent.minBackoffSeconds !== undefined
    ? {
        path: 'retryPolicy.minBackoffSeconds',
        message: `The minimum backoff must be at most the maximum backoff (${merged.maxBackoffSeconds} s).`,
      }
    : {
        path: 'retryPolicy.maxBackoffSeconds',
        message: `The maximum backoff must be at least the minimum backoff (${merged.minBackoffSeconds} s).`,
      };
}

/** The body of "Change a subscription": every field optional, unknown and fixed fields refused at their path. */
export const updateSubscriptionBody = z
  .strictObject({
    batchSize: batchSize.optional(),
    maxConcurrency: maxConcurrency.optional(),
    target: targetPatch.optional(),
    retryPolicy: retryPolicyPatch.optional(),
  })
  .meta({ id: 'SubscriptionUpdate' });

/** A new subscription's target: a complete one of a kind this version knows (the timeout has a default). */
export const newTarget = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({
      kind: z.literal('https'),
      url: targetUrl,
      timeoutSeconds: timeoutSeconds.default(DEFAULTS.timeoutSeconds),
    }),
    z.strictObject({ kind: z.literal('workflow'), workflowId }),
  ],
  { error: 'The target kind must be "https" or "workflow".' },
);

/** The body of "Create a subscription": unknown fields refused at their path, the rest defaulted. */
export const createSubscriptionBody = z
  .strictObject({
    queueId: z.uuid({ error: 'The queue ID must be a UUID.' }),
    target: newTarget,
    batchSize: batchSize.default(DEFAULTS.batchSize),
    maxConcurrency: maxConcurrency.default(DEFAULTS.maxConcurrency),
    state: z.enum(['active', 'paused'], { error: 'The state must be "active" or "paused".' }).default('active'),
    retryPolicy: retryPolicyPatch.optional(),
  })
  .superRefine((body, ctx) => {
    const sent = body.retryPolicy ?? {};
    const issue = backoffIssue({ ...DEFAULT_RETRY_POLICY, ...sent }, sent);
    if (issue) ctx.addIssue({ code: 'custom', path: issue.path.split('.'), message: issue.message });
  })
  .meta({ id: 'SubscriptionCreate' });

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
    slug: z.string().regex(shortIdPattern('qsb')),
    state: z.enum(['active', 'paused']),
    batchSize: z.int().min(1).max(10),
    maxConcurrency: z.int().min(1).max(100),
    target: z.union([httpsTarget, workflowTarget, unknownTarget]),
    retryPolicy,
    status: z.object({
      health: z.string().meta({ description: '`healthy` or `failing`; clients treat other values as unknown.' }),
      lastError: deliveryError.nullable(),
      lastSuccessAt: dateTime.nullable(),
    }),
    createdAt: dateTime,
    updatedAt: dateTime,
  })
  .meta({ id: 'Subscription' });

export const createdSubscription = subscription
  .extend({ signingSecret })
  .meta({ id: 'CreatedSubscription', description: 'The new subscription and its signing secret, shown once.' });
export const rotatedSubscriptionSecret = z.object({ signingSecret }).meta({ id: 'RotatedSubscriptionSecret' });

export type Subscription = z.infer<typeof subscription>;
export type CreatedSubscription = z.infer<typeof createdSubscription>;
export type SubscriptionCreate = z.infer<typeof createSubscriptionBody>;
export type SubscriptionTargetPatch = z.infer<typeof targetPatch>;
export type SubscriptionUpdate = z.infer<typeof updateSubscriptionBody>;
