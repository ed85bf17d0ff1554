import { backgroundJobsStopped } from '../background-jobs';
import { lt } from 'drizzle-orm';
import { endRollGraces } from '../api-keys/roll-service';
import { purgeOldUsage } from '../api-keys/usage-service';
import { getDb } from './client';
import { purgeExpiredIdempotencyRecords } from './idempotency';
import { pruneAuditEvents } from '../audit/retention';
import { sendExpiryReminders } from '../notifications/reminder-service';
import * as t from './schema';
import { pruneSudoWindows } from '../second-factor/sudo-service';
import { pruneWebauthnChallenges } from '../second-factor/passkey-service';

const EVERY_MS = 15 * 60_000;
// Rolled keys are refused from their stopsAt on by authentication; this only records the revocation.
const ROLL_GRACE_EVERY_MS = 60_000;
// Expiry reminders (7 days and 1 day before) need no finer clock than this; tests shorten it.
const REMINDERS_EVERY_MS = Number(process.env.KEY_REMINDERS_EVERY_MS ?? 60_000);

/**
 * Deletes what has outlived its use: idempotency records past 24 hours, rate-limit windows long over, ended
 * sessions past expiry, usage counts past 30 days, and audit events past AUDIT_RETENTION_DAYS (behind a
 * checkpoint, so the rest of each chain still verifies).
 */
export async function purgeExpired(now = new Date()): Promise<void> {
  await purgeExpiredIdempotencyRecords(now);
  await pruneAuditEvents(now);
  const db = await getDb();
  // rate-limiter-flexible reuses a key's row; rows of keys not seen for an hour (old client addresses) go.
  await db.delete(t.rateLimits).where(lt(t.rateLimits.expire, now.getTime() - 3_600_000));
  // A signed-out session past its own expiry is refused anyway: its record is no longer needed.
  await db.delete(t.endedSessions).where(lt(t.endedSessions.expiresAt, now));
  await purgeOldUsage(now);
  await pruneSudoWindows(now);
  await pruneWebauthnChallenges(now);
}

/** Runs the housekeeping now and periodically in this process; on several instances each does it, harmlessly. */
export function startHousekeeping(): void {
  const every = (ms: number, job: () => Promise<unknown>) => {
    const run = () => {
      if (backgroundJobsStopped()) return;
      void job().catch((err: unknown) => console.error('Housekeeping failed; will retry.', err));
    };
    run();
    setInterval(run, ms).unref();
  };
  every(EVERY_MS, () => purgeExpired());
  every(ROLL_GRACE_EVERY_MS, () => endRollGraces());
  every(REMINDERS_EVERY_MS, () => sendExpiryReminders());
}
