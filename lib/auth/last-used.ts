import { sql } from 'drizzle-orm';
import { getDb } from '../db/client';
import { inBackground } from '../db/priority';
import { apiKeys, apiKeyUsage } from '../db/schema';
import { settings } from '../settings/settings';

/**
 * `lastUsedAt` and the per-day request counts without a write on the request path: uses are buffered in
 * memory and flushed every few seconds, lastUsedAt at most once a minute per key. A key used once and then
 * idle is still flushed by the timer.
 */
const WRITE_EVERY_MS = 60_000;

type State = {
  pending: Map<string, Date>;
  written: Map<string, number>;
  /** Requests not yet flushed, by `<keyId> <YYYY-MM-DD>` (UTC day). */
  counts: Map<string, number>;
  timer?: NodeJS.Timeout;
};
const state: State = ((globalThis as unknown as { __svcLastUsed?: State }).__svcLastUsed ??= {
  pending: new Map(),
  written: new Map(),
  counts: new Map(),
});
state.counts ??= new Map();

export function recordApiKeyUse(keyId: string, at = new Date()): void {
  // `npm run bench` switches counting off in one run to show what it costs; nothing else should.
  if (settings().API_KEY_USAGE_COUNTING) {
    const day = `${keyId} ${at.toISOString().slice(0, 10)}`;
    state.counts.set(day, (state.counts.get(day) ?? 0) + 1);
  }
  if (!state.timer) {
    state.timer = setInterval(() => void inBackground(flushApiKeyUses), settings().LAST_USED_FLUSH_MS);
    state.timer.unref();
  }
  const last = state.written.get(keyId);
  if (last !== undefined && at.getTime() - last < WRITE_EVERY_MS) return;
  state.written.set(keyId, at.getTime());
  state.pending.set(keyId, at);
}

export async function flushApiKeyUses(): Promise<void> {
  await Promise.all([flushLastUsed(), flushCounts()]);
}

async function flushLastUsed(): Promise<void> {
  if (state.pending.size === 0) return;
  const batch = [...state.pending];
  state.pending.clear();
  try {
    const db = await getDb();
    // One statement for the whole batch, each key with its own instant; never moves a date backwards.
    const values = sql.join(
      batch.map(([id, at]) => sql`(${id}::uuid, ${at.toISOString()}::timestamptz)`),
      sql`, `,
    );
    await db.execute(sql`
      update ${apiKeys} set last_used_at = greatest(coalesce(${apiKeys.lastUsedAt}, v.at), v.at)
      from (values ${values}) as v(id, at) where ${apiKeys.id} = v.id`);
  } catch (err) {
    // Put them back: a passing database error must not lose the record of a use.
    for (const [id, d] of batch) if (!state.pending.has(id)) state.pending.set(id, d);
    console.error('Could not record API key use; will retry.', err);
  }
}

async function flushCounts(): Promise<void> {
  if (state.counts.size === 0) return;
  const batch = [...state.counts];
  state.counts.clear();
  try {
    const db = await getDb();
    // One upsert adding to the day's count, so every instance's counts sum up.
    await db
      .insert(apiKeyUsage)
      .values(batch.map(([key, requests]) => ({ keyId: key.slice(0, 36), day: key.slice(37), requests })))
      .onConflictDoUpdate({
        target: [apiKeyUsage.keyId, apiKeyUsage.day],
        set: { requests: sql`${apiKeyUsage.requests} + excluded.requests` },
      });
  } catch (err) {
    for (const [key, n] of batch) state.counts.set(key, (state.counts.get(key) ?? 0) + n);
    console.error('Could not record API key usage; will retry.', err);
  }
}
