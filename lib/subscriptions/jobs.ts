import { HOUSEKEEPING_EVERY_MS, type BackgroundJob } from '../jobs/runner';
import { onPublished } from '../queues/published';
import { purgeSubscriptionRecords } from './activity-service';
import { subscriptionDelivery } from './delivery';
import { expireMessages, measureBacklog } from './expiry-service';

/** QUEUE_EXPIRY_EVERY_MS: how often retention runs and the backlog gauge is read (default 30 s). */
const EXPIRY_EVERY_MS = Number(process.env.QUEUE_EXPIRY_EVERY_MS ?? 30_000);

/**
 * Subscriptions' background work, in every instance: delivering batches (the claims keep instances apart), the
 * queues' retention, and housekeeping (deleting the same old rows twice is harmless).
 */
export const subscriptionJobs: BackgroundJob[] = [
  {
    ...subscriptionDelivery.job,
    // A publish on this instance wakes its loop at once; other instances find the messages at their next pass.
    wakeWith: (wake) => {
      subscriptionDelivery.job.wakeWith?.(wake);
      onPublished(wake);
    },
  },
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
  { name: 'purge-subscription-records', everyMs: HOUSEKEEPING_EVERY_MS, run: () => purgeSubscriptionRecords() },
];
