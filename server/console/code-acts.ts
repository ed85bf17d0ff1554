import 'server-only';
import { currentApiKeyOp } from '@/lib/api-keys/operations';
import type { Operation } from '@/lib/pipeline/operation';
import { getQueueOp, publishMessagesOp } from '@/lib/queues/operations';
import { updateSilenceOp } from '@/lib/silences/operations';
import { subscriptionActivityOp } from '@/lib/subscriptions/activity-operations';
import { getSubscriptionOp } from '@/lib/subscriptions/operations';
import type { CodeAct } from '@/lib/console/code-samples';

/** What a key needs for an operation, as its declaration says: nothing for a door every key keeps. */
function actOf(op: Operation): CodeAct {
  const permissions = op.permission ? [op.permission] : (op.anyPermission ?? []);
  return { method: op.method, path: op.path, permissions };
}

/**
 * The acts the console's "Use from code" panels show, read from the operation registry: the request's path and the
 * permission the panel names come from the same object the route enforces, so neither can drift from it.
 */
export const CODE_ACTS = {
  publish: actOf(publishMessagesOp),
  readQueue: actOf(getQueueOp),
  readSubscription: actOf(getSubscriptionOp),
  subscriptionActivity: actOf(subscriptionActivityOp),
  updateSilence: actOf(updateSilenceOp),
  currentKey: actOf(currentApiKeyOp),
} satisfies Record<string, CodeAct>;

export type CodeActs = typeof CODE_ACTS;
