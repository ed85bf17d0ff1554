import { ANY_CREDENTIAL, defineOperation } from '../pipeline/operation';
import { pageOf, pageQuery } from '../http/pagination';
import { projectParams } from '../orgs/schema';
import { subscription, subscriptionParams, updateSubscriptionBody } from './schema';

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

export const updateSubscriptionOp = defineOperation({
  method: 'PATCH',
  path: `${base}/{subscriptionId}`,
  summary: 'Change a subscription',
  description: [
    'Only the fields given change; `{}` changes nothing. `target` merges field by field within its kind, and its',
    '`kind` must equal the current one (else 400 at `target.kind`). Body problems are 400 even for an unknown',
    'subscription; problems that need the subscription (kind, merged target) come after its 404.',
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

export const subscriptionOperations = [
  listSubscriptionsOp,
  getSubscriptionOp,
  updateSubscriptionOp,
  pauseSubscriptionOp,
  resumeSubscriptionOp,
];
