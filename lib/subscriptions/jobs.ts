import { HOUSEKEEPING_EVERY_MS, type BackgroundJob } from '../jobs/runner';
import { onPublished } from '../queues/published';
import { purgeSubscriptionRecords } from './activity-service';
import { subscriptionDeliveryLoop } from './delivery';
import { expireMessages, measureBacklog } from './expiry-service';
import { flushMinuteCounts } from './minute-counts';
import { settings } from '../settings/settings';

/** QUEUE_EXPIRY_EVERY_MS: how often retention runs and the backlog gauge is read (default 30 s). */
const EXPIRY_EVERY_MS = settings().QUEUE_EXPIRY_EVERY_MS;

/**
 * Subscriptions' background work, in every instance: delivering batches (the claims keep instances apart), the
 * queues' retention, and housekeeping (deleting the same old rows twice is harmless).
 */
export const subscriptionJobs: BackgroundJob[] = [
  {
    ...subscriptionDeliveryLoop.job,
    // A publish on this instance wakes its loop at once; other instances find the messages at their next pass.
    wakeWith: (wake) => {
      subscriptionDeliveryLoop.job.wakeWith?.(wake);
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
  {
    // The activity chart's counts, added up in memory by the records; what is left is written at shutdown.
    name: 'subscription-minute-counts',
    everyMs: 1_000,
    run: () => flushMinuteCounts(),
    release: async () => void (await flushMinuteCounts()),
  },
  { name: 'purge-subscription-records', everyMs: HOUSEKEEPING_EVERY_MS, run: () => purgeSubscriptionRecords() },
];
