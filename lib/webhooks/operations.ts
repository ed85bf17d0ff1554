import { ANY_CREDENTIAL, defineOperation } from '../pipeline/operation';
import { pageOf, pageQuery } from '../http/pagination';
import { orgParams } from '../orgs/schema';
import {
  attemptParams,
  createdWebhook,
  createWebhookBody,
  rotatedSecret,
  updateWebhookBody,
  webhook,
  webhookAttempt,
  webhookParams,
} from './schema';

const common = {
  tags: ['Webhooks'],
  scope: 'organization' as const,
  credentials: ANY_CREDENTIAL,
  permission: 'orgs.update' as const,
};

export const createWebhookOp = defineOperation({
  ...common,
  method: 'POST',
  path: '/v1/organizations/{orgId}/webhooks',
  summary: 'Add a webhook endpoint',
  sudo: true,
  description:
    'Every audit event whose action matches `events` (an action, `noun.*`, or `*`) is POSTed to `url`, signed per ' +
    'Standard Webhooks. The URL is `https://` and not an internal address. The signing secret is in this response only.',
  params: orgParams,
  body: createWebhookBody,
  success: {
    status: 201,
    description: 'The endpoint and its signing secret, shown once.',
    schema: createdWebhook,
    headers: { 'Cache-Control': 'no-store' },
  },
});

export const listWebhooksOp = defineOperation({
  ...common,
  method: 'GET',
  path: '/v1/organizations/{orgId}/webhooks',
  summary: "List an organization's webhook endpoints, newest first",
  description: 'Secrets are never listed.',
  params: orgParams,
  query: pageQuery,
  success: { status: 200, description: 'A page of endpoints.', schema: pageOf(webhook) },
  errors: ['invalid_cursor'],
});

export const getWebhookOp = defineOperation({
  ...common,
  method: 'GET',
  path: '/v1/organizations/{orgId}/webhooks/{webhookId}',
  summary: 'Get a webhook endpoint',
  description: 'The endpoint without its secret.',
  params: webhookParams,
  success: { status: 200, description: 'The endpoint.', schema: webhook },
});

export const updateWebhookOp = defineOperation({
  ...common,
  method: 'PATCH',
  path: '/v1/organizations/{orgId}/webhooks/{webhookId}',
  summary: 'Change a webhook endpoint',
  description: 'Only the fields given change; `enabled: true` re-enables an endpoint the service disabled.',
  params: webhookParams,
  body: updateWebhookBody,
  success: { status: 200, description: 'The endpoint as changed.', schema: webhook },
});

export const deleteWebhookOp = defineOperation({
  ...common,
  method: 'DELETE',
  path: '/v1/organizations/{orgId}/webhooks/{webhookId}',
  summary: 'Delete a webhook endpoint',
  description: 'Its queued deliveries and its delivery log go with it.',
  params: webhookParams,
  success: { status: 204, description: 'Deleted.' },
});

export const rotateWebhookSecretOp = defineOperation({
  ...common,
  method: 'POST',
  path: '/v1/organizations/{orgId}/webhooks/{webhookId}/rotate-secret',
  summary: "Rotate a webhook endpoint's signing secret",
  sudo: true,
  description: 'The new secret is shown once. For 24 hours deliveries carry a second signature made with the old one.',
  params: webhookParams,
  success: {
    status: 200,
    description: 'The new signing secret.',
    schema: rotatedSecret,
    headers: { 'Cache-Control': 'no-store' },
  },
});

export const testWebhookOp = defineOperation({
  ...common,
  method: 'POST',
  path: '/v1/organizations/{orgId}/webhooks/{webhookId}/test',
  summary: 'Send a test event to a webhook endpoint',
  description: 'Queues one `webhook.test` message, delivered and retried like any other.',
  params: webhookParams,
  success: { status: 202, description: 'Queued.' },
});

export const listWebhookDeliveriesOp = defineOperation({
  ...common,
  method: 'GET',
  path: '/v1/organizations/{orgId}/webhooks/{webhookId}/deliveries',
  summary: "A webhook endpoint's delivery log, newest first",
  description: 'One item per attempt: when, the status the receiver answered, how long it took, the next retry.',
  params: webhookParams,
  query: pageQuery,
  success: { status: 200, description: 'A page of attempts.', schema: pageOf(webhookAttempt) },
  errors: ['invalid_cursor'],
});

export const redeliverWebhookOp = defineOperation({
  ...common,
  method: 'POST',
  path: '/v1/organizations/{orgId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver',
  summary: 'Deliver a message again',
  description:
    'Queues the message of this attempt again, now, with the same `webhook-id`; the retry schedule starts over.',
  params: attemptParams,
  success: { status: 202, description: 'Queued.' },
});

export const webhookOperations = [
  createWebhookOp,
  listWebhooksOp,
  getWebhookOp,
  updateWebhookOp,
  deleteWebhookOp,
  rotateWebhookSecretOp,
  testWebhookOp,
  listWebhookDeliveriesOp,
  redeliverWebhookOp,
];
