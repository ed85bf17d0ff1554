import { sql } from 'drizzle-orm';
import { getDb } from '../db/client';
import { apiKeys } from '../db/schema';

/**
 * `lastUsedAt` without a write on the request path: uses are buffered in memory and flushed every few
 * seconds, at most once a minute per key. A key used once and then idle is still flushed by the timer.
 */
const WRITE_EVERY_MS = 60_000;
const FLUSH_EVERY_MS = Number(process.env.LAST_USED_FLUSH_MS ?? 5_000);

type State = { pending: Map<string, Date>; written: Map<string, number>; timer?: NodeJS.Timeout };
const state: State = ((globalThis as unknown as { __svcLastUsed?: State }).__svcLastUsed ??= {
  pending: new Map(),
  written: new Map(),
});

export function recordApiKeyUse(keyId: string, at = new Date()): void {
  const last = state.written.get(keyId);
  if (last !== undefined && at.getTime() - last < WRITE_EVERY_MS) return;
  state.written.set(keyId, at.getTime());
  state.pending.set(keyId, at);
  if (!state.timer) {
    state.timer = setInterval(() => void flushApiKeyUses(), FLUSH_EVERY_MS);
    state.timer.unref();
  }
}

export async function flushApiKeyUses(): Promise<void> {
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
