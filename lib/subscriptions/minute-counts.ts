import { sql } from 'drizzle-orm';
import { getDb } from '../db/client';

type Counts = { delivered: number; failed: number; dead: number };

/**
 * The activity chart's per-minute counts of recorded attempts, added up in memory and written once a second by
 * `flushMinuteCounts`: an upsert per record would make every record of a busy subscription, on every instance,
 * wait for the one before it on the minute's row. A crash loses at most a second of the chart, never a message.
 */
const pending = new Map<string, Counts & { subscriptionId: string; minute: string }>();

/** Adds what one committed record counted, in the minute the database gave it. */
export function countMinute(subscriptionId: string, minute: string, counts: Counts): void {
  if (counts.delivered + counts.failed + counts.dead === 0) return;
  const key = `${subscriptionId} ${minute}`;
  const kept = pending.get(key) ?? { subscriptionId, minute, delivered: 0, failed: 0, dead: 0 };
  kept.delivered += counts.delivered;
  kept.failed += counts.failed;
  kept.dead += counts.dead;
  pending.set(key, kept);
}

/**
 * Writes what was counted since the last flush in one statement; on a failure the counts stay for the next one.
 * A subscription deleted meanwhile has nothing written. Returns how many rows it wrote.
 */
export async function flushMinuteCounts(): Promise<number> {
  if (pending.size === 0) return 0;
  const rows = [...pending.values()];
  pending.clear();
  try {
    const db = await getDb();
    await db.execute(sql`
      insert into subscription_minutes (subscription_id, minute, delivered, failed, dead_lettered)
      select r.subscription_id, r.minute, r.delivered, r.failed, r.dead
      from jsonb_to_recordset(${JSON.stringify(rows.map((r) => ({ ...r, subscription_id: r.subscriptionId })))}::jsonb)
        as r(subscription_id uuid, minute timestamptz, delivered int, failed int, dead int)
      where exists (select 1 from subscriptions s where s.id = r.subscription_id)
      on conflict (subscription_id, minute) do update
      set delivered = subscription_minutes.delivered + excluded.delivered,
        failed = subscription_minutes.failed + excluded.failed,
        dead_lettered = subscription_minutes.dead_lettered + excluded.dead_lettered`);
    return rows.length;
  } catch (err) {
    for (const r of rows) countMinute(r.subscriptionId, r.minute, r);
    throw err;
  }
}
