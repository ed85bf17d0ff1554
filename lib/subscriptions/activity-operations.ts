import { ANY_CREDENTIAL, defineOperation } from '../pipeline/operation';
import { pageOf, pageQuery } from '../http/pagination';
import {
  deadLetter,
  deadLetterParams,
  redriveBody,
  redriveResult,
  subscriptionActivity,
  subscriptionDelivery,
} from './activity-schema';
import { subscriptionParams } from './schema';

const base = '/v1/organizations/{orgId}/projects/{projectId}/subscriptions/{subscriptionId}';
const common = { tags: ['Queues'], scope: 'project' as const, credentials: ANY_CREDENTIAL };

export const subscriptionActivityOp = defineOperation({
  ...common,
  method: 'GET',
  path: `${base}/activity`,
  summary: "A subscription's backlog and its last hour",
  description: [
    'Backlog: `inFlight` (leased to a delivery under way), `delayed` (due later: a retry or a publish delay),',
    '`ready` (the rest of the undelivered), `deadLettered`, and when the oldest ready message was published.',
    'Minutes: delivered, failed, dead-lettered and expired messages per minute (UTC), the last 60, oldest first.',
  ].join(' '),
  params: subscriptionParams,
  permission: 'queues.subscriptions.get',
  success: { status: 200, description: 'The backlog and the last 60 minutes.', schema: subscriptionActivity },
});

export const listSubscriptionDeliveriesOp = defineOperation({
  ...common,
  method: 'GET',
  path: `${base}/deliveries`,
  summary: "A subscription's deliveries of the last 24 hours, newest first",
  description: 'One item per request sent to the target, with the messages it carried and how it ended.',
  params: subscriptionParams,
  query: pageQuery,
  permission: 'queues.subscriptions.get',
  success: { status: 200, description: 'A page of deliveries.', schema: pageOf(subscriptionDelivery) },
  errors: ['invalid_cursor'],
});

export const listDeadLettersOp = defineOperation({
  ...common,
  method: 'GET',
  path: `${base}/dead-letters`,
  summary: "List a subscription's dead letters, oldest first",
  description:
    'Messages that failed `retryPolicy.maxAttempts` times, in the order they were dead-lettered, keyset-paged.',
  params: subscriptionParams,
  query: pageQuery,
  permission: 'queues.subscriptions.get',
  success: { status: 200, description: 'A page of dead letters.', schema: pageOf(deadLetter) },
  errors: ['invalid_cursor'],
});

export const redriveDeadLettersOp = defineOperation({
  ...common,
  method: 'POST',
  path: `${base}/dead-letters/redrive`,
  summary: 'Redrive dead letters',
  description: [
    'The dead letters named in `messageIds` (at most 1000; ids that are not dead letters of this subscription are',
    'skipped), or with `{}` all of them, become pending again: due now, their attempts starting over. "All" takes',
    'what was dead-lettered before the request, in batches of 1000, each with its own audit event.',
  ].join(' '),
  params: subscriptionParams,
  body: redriveBody,
  permission: 'queues.subscriptions.redrive',
  success: { status: 202, description: 'How many were redriven; they are delivered as usual.', schema: redriveResult },
});

export const discardDeadLetterOp = defineOperation({
  ...common,
  method: 'DELETE',
  path: `${base}/dead-letters/{messageId}`,
  summary: 'Discard a dead letter',
  description: 'The message is never delivered to this subscription; other subscriptions of the queue keep theirs.',
  params: deadLetterParams,
  permission: 'queues.subscriptions.redrive',
  success: { status: 204, description: 'Discarded.' },
});

export const activityOperations = [
  subscriptionActivityOp,
  listSubscriptionDeliveriesOp,
  listDeadLettersOp,
  redriveDeadLettersOp,
  discardDeadLetterOp,
];
