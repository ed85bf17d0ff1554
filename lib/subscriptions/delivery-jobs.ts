import type { BackgroundJob } from '../jobs/runner';
import { subscriptionDelivery } from './delivery';
import { expireMessages, measureBacklog } from './expiry-service';

/** QUEUE_EXPIRY_EVERY_MS: how often retention runs and the backlog gauge is read (default 30 s). */
const EXPIRY_EVERY_MS = Number(process.env.QUEUE_EXPIRY_EVERY_MS ?? 30_000);

/** Delivering subscriptions' batches, and the queues' retention; in every instance. */
export const subscriptionDeliveryJobs: BackgroundJob[] = [
  subscriptionDelivery.job,
  {
    name: 'expire-queue-messages',
    everyMs: EXPIRY_EVERY_MS,
    run: async () => {
      const removed = await expireMessages();
      await measureBacklog();
      return removed;
    },
    again: (removed) => typeof removed === 'number' && removed >= 1_000,
  },
];
