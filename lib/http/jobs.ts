import { lt } from 'drizzle-orm';
import { purgeExpiredIdempotencyRecords } from '../db/idempotency';
import * as t from '../db/schema';
import { HOUSEKEEPING_EVERY_MS, type BackgroundJob } from '../jobs/runner';
import { deleteInBatches } from '../db/batched-delete';

/** Deletes what the request pipeline kept past its use: idempotency records past 24 hours, rate-limit windows long over. */
export async function purgeRequestRecords(now = new Date()): Promise<void> {
  await purgeExpiredIdempotencyRecords(now);
  // rate-limiter-flexible reuses a key's row; rows of keys not seen for an hour (old client addresses) go.
  await deleteInBatches(t.rateLimits, lt(t.rateLimits.expire, now.getTime() - 3_600_000));
}

export const requestRecordJobs: BackgroundJob[] = [
  { name: 'purge-request-records', everyMs: HOUSEKEEPING_EVERY_MS, run: () => purgeRequestRecords() },
];
