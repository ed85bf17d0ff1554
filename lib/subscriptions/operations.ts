import { ANY_CREDENTIAL, defineOperation } from '../pipeline/operation';
import { pageOf, pageQuery } from '../http/pagination';
import { orgParams, projectParams } from '../orgs/schema';
import { subscriptionHealth } from './health-schema';
import { activityOperations } from './activity-operations';
import {
  createdSubscription,
  createSubscriptionBody,
  rotatedSubscriptionSecret,
  subscription,
  subscriptionParams,
  updateSubscriptionBody,
} from './schema';

const base = '/v1/organizations/{orgId}/projects/{projectId}/subscriptions';

export const listSubscriptionsOp = defineOperation({
  method: 'GET',
  path: base,
  summary: "List a project's subscriptions",
  description: 'Oldest first, keyset-paged.',
  tags: ['Queues'],
  scope: 'project',
  credentials: ANY_CREDENTIAL,
  params: projectParams,
  query: pageQuery,
  permission: 'queues.subscriptions.list',
  success: {
    status: 200,
    description: 'A page of subscriptions.',
    schema: pageOf(subscription),
  },
  errors: ['invalid_cursor'],
});

export const getSubscriptionOp = defineOperation({
  method: 'GET',
  path: `${base}/{subscriptionId}`,
  summary: 'Get a subscription',
  tags: ['Queues'],
  scope: 'project',
  credentials: ANY_CREDENTIAL,
  params: subscriptionParams,
  permission: 'queues.subscriptions.get',
  success: { status: 200, description: 'The subscription.', schema: subscription },
});

export const createSubscriptionOp = defineOperation({
  method: 'POST',
  path: base,
  summary: 'Create a subscription',
  description: [
    'Delivers every message published to the queue from now on to `target`. The queue must be one of this',
    "project's (else 400 at `queueId`); a queue has at most 10 subscriptions (409 `quota_exceeded`). Defaults:",
    '`batchSize` 10, `maxConcurrency` 10, `state` `active`, `target.timeoutSeconds` 30, `retryPolicy`',
    '{maxAttempts 5, minBackoffSeconds 10, maxBackoffSeconds 600}. The signing secret is in this response only.',
  ].join(' '),
  tags: ['Queues'],
  scope: 'project',
  credentials: ANY_CREDENTIAL,
  params: projectParams,
  body: createSubscriptionBody,
  permission: 'queues.subscriptions.create',
  success: {
    status: 201,
    description: 'The subscription and its signing secret, shown once.',
    schema: createdSubscription,
    headers: { 'Cache-Control': 'no-store' },
  },
  errors: ['quota_exceeded'],
});

export const deleteSubscriptionOp = defineOperation({
  method: 'DELETE',
  path: `${base}/{subscriptionId}`,
  summary: 'Delete a subscription',
  description: 'Its backlog (undelivered and dead-lettered messages), deliveries and activity go with it.',
  tags: ['Queues'],
  scope: 'project',
  credentials: ANY_CREDENTIAL,
  params: subscriptionParams,
  permission: 'queues.subscriptions.delete',
  success: { status: 204, description: 'Deleted.' },
});

export const rotateSubscriptionSecretOp = defineOperation({
  method: 'POST',
  path: `${base}/{subscriptionId}/rotate-secret`,
  summary: "Rotate a subscription's signing secret",
  description:
    'The new secret is shown once. For 24 hours deliveries carry a second signature made with the old one. A subscription made before deliveries existed gets its first secret this way.',
  tags: ['Queues'],
  scope: 'project',
  credentials: ANY_CREDENTIAL,
  sudo: true,
  params: subscriptionParams,
  permission: 'queues.subscriptions.update',
  success: {
    status: 200,
    description: 'The new signing secret.',
    schema: rotatedSubscriptionSecret,
    headers: { 'Cache-Control': 'no-store' },
  },
});

export const updateSubscriptionOp = defineOperation({
  method: 'PATCH',
  path: `${base}/{subscriptionId}`,
  summary: 'Change a subscription',
  description: [
    'Only the fields given change; `{}` changes nothing. `target` merges field by field within its kind, and its',
    '`kind` must equal the current one (else 400 at `target.kind`); `retryPolicy` merges field by field, and the',
    'merged `minBackoffSeconds` must not exceed `maxBackoffSeconds` (else 400 at the field sent). Body problems are',
    '400 even for an unknown subscription; problems that need the subscription (kind, merged target and policy)',
    'come after its 404.',
  ].join(' '),
  tags: ['Queues'],
  scope: 'project',
  credentials: ANY_CREDENTIAL,
  params: subscriptionParams,
  body: updateSubscriptionBody,
  permission: 'queues.subscriptions.update',
  success: { status: 200, description: 'The subscription as changed.', schema: subscription },
});

const stateChange = (verb: 'pause' | 'resume') =>
  defineOperation({
    method: 'POST',
    path: `${base}/{subscriptionId}/${verb}`,
    summary: verb === 'pause' ? 'Pause a subscription' : 'Resume a subscription',
    description: `Sets \`state\` to \`${verb === 'pause' ? 'paused' : 'active'}\`. Already in that state: 200 with the subscription unchanged (same \`updatedAt\`, no audit event). No request body.`,
    tags: ['Queues'],
    scope: 'project',
    credentials: ANY_CREDENTIAL,
    params: subscriptionParams,
    permission: 'queues.subscriptions.update',
    success: { status: 200, description: 'The subscription in its new state.', schema: subscription },
  });

export const pauseSubscriptionOp = stateChange('pause');
export const resumeSubscriptionOp = stateChange('resume');

export const subscriptionHealthOp = defineOperation({
  method: 'GET',
  path: '/v1/organizations/{orgId}/subscription-health',
  summary: "Failing subscriptions and dead letters in each of an organization's projects",
  description:
    'One item per project that has a subscription and whose subscriptions the caller may list ' +
    '(`queues.subscriptions.list` there): how many fail, the dead letters they hold, and the subscription holding ' +
    "the most. The console's overview shows it.",
  tags: ['Queues'],
  scope: 'organization',
  credentials: ANY_CREDENTIAL,
  params: orgParams,
  permission: 'projects.get',
  success: { status: 200, description: 'Each project the caller may see.', schema: subscriptionHealth },
});

export const subscriptionOperations = [
  subscriptionHealthOp,
  listSubscriptionsOp,
  createSubscriptionOp,
  getSubscriptionOp,
  updateSubscriptionOp,
  deleteSubscriptionOp,
  pauseSubscriptionOp,
  resumeSubscriptionOp,
  rotateSubscriptionSecretOp,
  ...activityOperations,
];
