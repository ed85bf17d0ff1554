import { lt } from 'drizzle-orm';
import * as t from '../db/schema';
import { HOUSEKEEPING_EVERY_MS, type BackgroundJob } from '../jobs/runner';
import { deleteInBatches } from '../db/batched-delete';

/** A signed-out session past its own expiry is refused anyway: its record is no longer needed. */
export async function purgeEndedSessions(now = new Date()): Promise<void> {
  await deleteInBatches(t.endedSessions, lt(t.endedSessions.expiresAt, now));
}

export const authJobs: BackgroundJob[] = [
  { name: 'purge-ended-sessions', everyMs: HOUSEKEEPING_EVERY_MS, run: () => purgeEndedSessions() },
];
