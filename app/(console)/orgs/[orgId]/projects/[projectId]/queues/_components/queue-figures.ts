// What the queue list shows of each queue, without React: its subscriptions' backlogs, added up.

type Backlog = { ready: number; oldestReadyAt: string | null };

/** A queue's figures; `ready` and `oldestReadyAt` are undefined until every subscription's backlog has been read. */
export type QueueFigures = { subscriptions: number; ready?: number; oldestReadyAt?: string | null };

/**
 * Each queue's subscriptions, the ready messages waiting in all of them (a message waits once per subscription,
 * as `svc_queue_backlog_messages` counts it) and the oldest of those messages' publish time.
 */
export function figuresByQueue(
  subscriptions: readonly { id: string; queueId: string }[],
  backlogOf: (subscriptionId: string) => Backlog | undefined,
): Map<string, QueueFigures> {
  const figures = new Map<string, QueueFigures & { unknown: boolean }>();
  for (const sub of subscriptions) {
    const entry = figures.get(sub.queueId) ?? { subscriptions: 0, ready: 0, oldestReadyAt: null, unknown: false };
    entry.subscriptions++;
    const backlog = backlogOf(sub.id);
    if (!backlog) entry.unknown = true;
    else {
      entry.ready = (entry.ready ?? 0) + backlog.ready;
      if (backlog.oldestReadyAt && (!entry.oldestReadyAt || backlog.oldestReadyAt < entry.oldestReadyAt))
        entry.oldestReadyAt = backlog.oldestReadyAt;
    }
    figures.set(sub.queueId, entry);
  }
  return new Map(
    [...figures].map(([queueId, { unknown, ...entry }]) => [
      queueId,
      unknown ? { subscriptions: entry.subscriptions } : entry,
    ]),
  );
}
