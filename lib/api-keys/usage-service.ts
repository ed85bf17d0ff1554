import { and, eq, gte, lt } from 'drizzle-orm';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import type { ApiKeyUsage } from './schema';
import { DAY_MS } from './service';
import { deleteInBatches } from '../db/batched-delete';

/** How many UTC days of usage are kept and served. */
export const USAGE_DAYS = 30;

const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/** The last 30 UTC days of one key, oldest first, today last, days without requests as 0. */
export async function apiKeyUsageOf(keyId: string, now = new Date()): Promise<ApiKeyUsage> {
  const days = Array.from({ length: USAGE_DAYS }, (_, i) =>
    utcDay(new Date(now.getTime() - (USAGE_DAYS - 1 - i) * DAY_MS)),
  );
  const db = await getDb();
  const rows = await db
    .select({ day: t.apiKeyUsage.day, requests: t.apiKeyUsage.requests })
    .from(t.apiKeyUsage)
    .where(and(eq(t.apiKeyUsage.keyId, keyId), gte(t.apiKeyUsage.day, days[0])));
  const byDay = new Map(rows.map((r) => [r.day, Number(r.requests)]));
  return { days: days.map((date) => ({ date, requests: byDay.get(date) ?? 0 })) };
}

/** Housekeeping: days older than the 30 served are deleted. */
export async function purgeOldUsage(now = new Date()): Promise<void> {
  await deleteInBatches(
    t.apiKeyUsage,
    lt(t.apiKeyUsage.day, utcDay(new Date(now.getTime() - (USAGE_DAYS - 1) * DAY_MS))),
  );
}
