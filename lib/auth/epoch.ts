import { eq, sql } from 'drizzle-orm';
import { getPgPool, type DbOrTx } from '../db/client';
import { Coalescer } from '../db/coalesce';
import * as t from '../db/schema';
import { AUTH_EPOCH_QUERY } from '../db/auth-epoch';
import { invalidateAuthCaches } from './cache';

type EpochState = { epoch: number; reads: Coalescer<null, number> };

// The epoch this process's caches were filled under, and its reads; one per process, like the caches.
const seen = ((globalThis as unknown as { __svcAuthEpoch?: EpochState }).__svcAuthEpoch ??= {
  epoch: -1,
  reads: new Coalescer(readEpoch),
});

async function readEpoch(): Promise<number> {
  const pool = await getPgPool();
  if (!pool) return -1;
  const { rows } = await pool.query<{ epoch: string }>({ name: 'svc_auth_epoch', text: AUTH_EPOCH_QUERY });
  return Number(rows[0]?.epoch ?? 0);
}

/**
 * Called in the transaction of every change that takes access away, so the bump commits with it: an
 * instance that reads the new epoch also reads the change, and none reads the epoch before the change.
 */
export async function bumpAuthEpoch(tx: DbOrTx): Promise<void> {
  await tx
    .update(t.authEpoch)
    .set({ epoch: sql`${t.authEpoch.epoch} + 1` })
    .where(eq(t.authEpoch.id, 1));
}

/**
 * Before a request is answered from the authentication caches on PostgreSQL (several instances): one
 * primary-key read of the epoch; if another instance bumped it, everything cached here is dropped first.
 * Concurrent requests share a read, but only one issued after they all arrived (lib/db/coalesce.ts), so
 * each still sees every bump committed before it asked. The embedded database is one process, where
 * invalidation is already synchronous: nothing to read.
 */
export async function validateAuthCaches(): Promise<void> {
  if (!(await getPgPool())) return;
  const { result: epoch } = await seen.reads.join(null);
  applyAuthEpoch(epoch);
}

/**
 * How a lookup in the authentication caches learns of bumps by other instances: `read` reads the epoch first;
 * `deferred` leaves it to the caller, which applies an epoch read issued after the request arrived and looks
 * up again if that dropped the caches (lib/pipeline/authenticate.ts).
 */
export type EpochCheck = 'read' | 'deferred';

export async function checkAuthEpoch(check: EpochCheck): Promise<void> {
  if (check === 'read') await validateAuthCaches();
}

/**
 * An epoch read by a statement issued after the request arrived (the epoch read above, or the one the
 * rate-limit upsert carries): everything cached here is dropped if another instance bumped it since.
 */
export function applyAuthEpoch(epoch: number): void {
  // Only forwards: a slow read of an older epoch must not make newer entries look stale (or older ones fresh).
  if (epoch > seen.epoch) {
    invalidateAuthCaches();
    seen.epoch = epoch;
  }
}
