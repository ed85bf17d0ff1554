import { expect, type APIRequestContext, type APIResponse } from '@playwright/test';
import type { Demo } from '../fixtures';
import type { Target } from './bad-input-targets';
import { createQueue, listQueues, messagesPath, queueName, queuePath, queuesPath, type Queue } from './queues';

type MakeTarget = (t: Omit<Target, 'check'>, check: (res: APIResponse) => Promise<void>) => Target;

export const QUEUE_TARGET_KEYS = [
  'GET /v1/organizations/{orgId}/projects/{projectId}/queues',
  'POST /v1/organizations/{orgId}/projects/{projectId}/queues',
  'PATCH /v1/organizations/{orgId}/projects/{projectId}/queues/{queueId}',
  'POST /v1/organizations/{orgId}/projects/{projectId}/queues/{queueId}/messages',
];

/**
 * The queue operations, on queues of their own in Staging without subscriptions, so a probe's message reaches no
 * one. What a refused publish stores is counted in the database by e2e/api/queues-publish.spec.ts.
 */
export async function queueTargets(ada: APIRequestContext, demo: Demo, target: MakeTarget): Promise<Target[]> {
  const [org, project] = [demo.acme, demo.staging];
  const probe = await createQueue(ada, org, project, { name: queueName('bad-input'), retentionSeconds: 3600 });
  const read = async () => (await ada.get(queuePath(probe))).json();
  const ids = async () => (await listQueues(ada, org, project)).map((q) => q.id);
  const status = (n: number) => async (res: APIResponse) => expect(res.status(), await res.text()).toBe(n);

  return [
    target(
      { key: QUEUE_TARGET_KEYS[0], url: queuesPath(org, project), method: 'GET', valid: { query: { limit: '10' } } },
      status(200),
    ),
    target(
      {
        key: QUEUE_TARGET_KEYS[1],
        url: queuesPath(org, project),
        method: 'POST',
        valid: { body: { name: 'bad-input-probe', retentionSeconds: 86_400 } },
        snapshot: ids,
      },
      async (res) => {
        expect(res.status(), await res.text()).toBe(201);
        expect((await ada.delete(queuePath((await res.json()) as Queue))).status()).toBe(204);
      },
    ),
    target(
      {
        key: QUEUE_TARGET_KEYS[2],
        url: queuePath(probe),
        method: 'PATCH',
        // Its current value: valid, and a change of nothing.
        valid: { body: { retentionSeconds: probe.retentionSeconds } },
        snapshot: read,
      },
      status(200),
    ),
    target(
      {
        key: QUEUE_TARGET_KEYS[3],
        url: messagesPath(probe),
        method: 'POST',
        valid: {
          headers: { 'Idempotency-Key': 'replaced-per-request' },
          body: {
            messages: [{ body: { order: 7, note: 'bad-input probe' }, attributes: { kind: 'probe' }, delaySeconds: 0 }],
          },
        },
        snapshot: read,
      },
      status(202),
    ),
  ];
}
