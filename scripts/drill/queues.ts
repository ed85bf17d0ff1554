// The drills' queue phase: a subscription with a small cap delivers messages published through both instances to
// a real receiver, which measures how many of its deliveries are in flight at once.
import { startQueueReceiver, until } from '../../e2e/support/queue-receiver';
import type { Caller } from './caller';

export type QueueDrill = { published: number; delivered: number; duplicates: number; maxInFlight: number; cap: number };

export async function drillQueues(
  callers: Caller[],
  project: { org: string; project: string },
  port: number,
  { messages = 1_000, cap = 3, batchSize = 5 } = {},
): Promise<QueueDrill> {
  const receiver = await startQueueReceiver(port);
  try {
    receiver.respond(() => ({ status: 204, holdMs: 20 }));
    const base = `/v1/organizations/${project.org}/projects/${project.project}`;
    const [first] = callers;
    const queue = await first.json<{ id: string }>('POST', `${base}/queues`, {
      name: `drill-${Date.now().toString(36)}`,
    });
    const sub = await first.json<{ signingSecret: string }>('POST', `${base}/subscriptions`, {
      queueId: queue.id,
      target: { kind: 'https', url: receiver.url, timeoutSeconds: 5 },
      batchSize,
      maxConcurrency: cap,
    });
    receiver.verifyWith(sub.signingSecret);
    const ids = new Set<string>();
    for (let sent = 0, i = 0; sent < messages; sent += 100, i++) {
      const n = Math.min(100, messages - sent);
      const { messageIds } = await callers[i % callers.length].json<{ messageIds: string[] }>(
        'POST',
        `${base}/queues/${queue.id}/messages`,
        { messages: Array.from({ length: n }, (_, k) => ({ body: { n: sent + k } })) },
      );
      for (const id of messageIds) ids.add(id);
    }
    await until(() => receiver.messageIds().filter((id) => ids.has(id)).length >= ids.size, 90_000).catch(() => {});
    const delivered = new Set(receiver.messageIds().filter((id) => ids.has(id))).size;
    const all = receiver.messageIds().length;
    if (receiver.state.badSignatures > 0)
      throw new Error(`${receiver.state.badSignatures} batches failed verification`);
    return {
      published: ids.size,
      delivered,
      duplicates: all - delivered,
      maxInFlight: receiver.state.maxInFlight,
      cap,
    };
  } finally {
    await receiver.close();
  }
}
