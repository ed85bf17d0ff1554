import { lte, sql } from 'drizzle-orm';
import { deleteInBatches } from '../db/batched-delete';
import * as t from '../db/schema';
import { HOUSEKEEPING_EVERY_MS, type BackgroundJob } from '../jobs/runner';
import { followTheClock } from './muting-service';
import { settings } from '../settings/settings';

// Alerts resolve and silences end by the clock: each silence's `mutedAlerts` follows within this (PRODUCT.md: 10 s).
const MUTING_EVERY_MS = 10_000;

/** Deletes the resolved alerts older than ALERT_RETENTION_SECONDS (their links go with them), and older refusals. */
export async function purgeResolvedAlerts(now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - settings().ALERT_RETENTION_SECONDS * 1000);
  const refusals = await deleteInBatches(t.alertRefusals, sql`${lte(t.alertRefusals.at, before)}`);
  return refusals + (await deleteInBatches(t.alerts, sql`${lte(t.alerts.endsAt, before)}`));
}

export const alertJobs: BackgroundJob[] = [
  { name: 'alerts-follow-the-clock', everyMs: MUTING_EVERY_MS, run: () => followTheClock(), again: (n) => n === 100 },
  { name: 'purge-resolved-alerts', everyMs: HOUSEKEEPING_EVERY_MS, run: () => purgeResolvedAlerts() },
];
