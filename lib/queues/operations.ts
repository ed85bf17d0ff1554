import { ANY_CREDENTIAL, defineOperation, type Operation } from '../pipeline/operation';
import { pageOf, pageQuery } from '../http/pagination';
import { projectParams } from '../orgs/schema';
import { idempotencyHeaders } from '../silences/schema';
import { binaryModeHeaders, cloudEventFormats } from './cloudevents';
import { createQueueBody, publishBody, published, queue, queueParams, updateQueueBody } from './schema';

const base = '/v1/organizations/{orgId}/projects/{projectId}/queues';

/** What every queue operation shares: a project's resource, for any credential. */
const queuesApi = { tags: ['Queues'], scope: 'project', credentials: ANY_CREDENTIAL } satisfies Partial<Operation>;

export const listQueuesOp = defineOperation({
  method: 'GET',
  path: base,
  summary: "List a project's queues",
  description: 'Oldest first, keyset-paged.',
  ...queuesApi,
  params: projectParams,
  query: pageQuery,
  permission: 'queues.queues.list',
  success: { status: 200, description: 'A page of queues.', schema: pageOf(queue) },
  errors: ['invalid_cursor'],
});

export const createQueueOp = defineOperation({
  method: 'POST',
  path: base,
  summary: 'Create a queue',
  description: [
    'Names are unique in the project: 409 `queue_name_taken`. A project holds at most `QUEUES_MAX_PER_PROJECT` queues',
    '(default 100): beyond it 409 `quota_exceeded` with `quota`, nothing stored. Audit `queue.created`.',
  ].join(' '),
  ...queuesApi,
  params: projectParams,
  body: createQueueBody,
  permission: 'queues.queues.create',
  success: {
    status: 201,
    description: 'The queue.',
    schema: queue,
    headers: { Location: 'The path of the new queue.' },
  },
  errors: ['queue_name_taken', 'quota_exceeded'],
});

export const getQueueOp = defineOperation({
  method: 'GET',
  path: `${base}/{queueId}`,
  summary: 'Get a queue',
  ...queuesApi,
  params: queueParams,
  permission: 'queues.queues.get',
  success: { status: 200, description: 'The queue.', schema: queue },
});

export const updateQueueOp = defineOperation({
  method: 'PATCH',
  path: `${base}/{queueId}`,
  summary: 'Change a queue',
  description:
    'Only `retentionSeconds` changes; the same value changes nothing and keeps `updatedAt`. Audit `queue.updated`.',
  ...queuesApi,
  params: queueParams,
  body: updateQueueBody,
  permission: 'queues.queues.update',
  success: { status: 200, description: 'The queue as changed.', schema: queue },
});

export const deleteQueueOp = defineOperation({
  method: 'DELETE',
  path: `${base}/{queueId}`,
  summary: 'Delete a queue',
  description:
    'Its messages go with it. While any subscription reads from it: 409 `queue_in_use`, nothing changed. Audit `queue.deleted`.',
  ...queuesApi,
  params: queueParams,
  permission: 'queues.queues.delete',
  success: { status: 204, description: 'Deleted.' },
  errors: ['queue_in_use'],
});

export const publishMessagesOp = defineOperation({
  method: 'POST',
  path: `${base}/{queueId}/messages`,
  summary: 'Publish messages',
  description: [
    'Stores 1 to 100 messages, all or none, each for every subscription of the queue, and answers their ids in the ' +
      'request’s order. A subscription with `QUEUE_MAX_BACKLOG` undelivered messages (default 1,000,000) refuses ' +
      'more: 409 `quota_exceeded` with `quota`, nothing stored.',
    'CloudEvents 1.0 over HTTP too, each event one message whose `body` is the event in structured JSON form: ' +
      '`application/cloudevents+json` (one event), `application/cloudevents-batch+json` (1 to 100), or binary mode ' +
      '(a `ce-specversion` header; the `ce-*` headers are the attributes, the body the data: JSON as `data`, text as ' +
      'a string, anything else as `data_base64`). An event without `id`, `source`, `specversion` "1.0" or `type` is ' +
      '400 at its path (`2.source` in a batch, the `ce-source` header in binary mode).',
    'Idempotency-Key: retries within 24 hours get the stored response, the same ids, and store nothing again.',
  ].join('\n\n'),
  ...queuesApi,
  params: queueParams,
  headers: idempotencyHeaders.extend(binaryModeHeaders),
  body: publishBody,
  bodyFormats: cloudEventFormats,
  permission: 'queues.messages.publish',
  idempotent: true,
  success: { status: 202, description: 'The messages, stored.', schema: published },
  errors: ['quota_exceeded', 'idempotency_conflict', 'idempotency_in_progress'],
});

export const queueOperations = [
  listQueuesOp,
  createQueueOp,
  getQueueOp,
  updateQueueOp,
  deleteQueueOp,
  publishMessagesOp,
];
