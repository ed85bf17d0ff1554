import { HOUSEKEEPING_EVERY_MS, type BackgroundJob } from '../jobs/runner';
import { purgeSubscriptionRecords } from './activity-service';

/** Subscriptions' housekeeping, in every instance: deleting the same old rows twice is harmless. */
export const subscriptionJobs: BackgroundJob[] = [
  { name: 'purge-subscription-records', everyMs: HOUSEKEEPING_EVERY_MS, run: () => purgeSubscriptionRecords() },
];
