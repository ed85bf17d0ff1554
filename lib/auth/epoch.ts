import { eq, sql } from 'drizzle-orm';
import { getPgPool, type DbOrTx } from '../db/client';
import * as t from '../db/schema';
import { invalidateAuthCaches } from './cache';

// The epoch this process's caches were filled under; one per process, like the caches.
const seen = ((globalThis as unknown as { __svcAuthEpoch?: { epoch: number } }).__svcAuthEpoch ??= { epoch: -1 });

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
 * The embedded database is one process, where invalidation is already synchronous: nothing to read.
 */
export async function validateAuthCaches(): Promise<void> {
  const pool = await getPgPool();
  if (!pool) return;
  const { rows } = await pool.query<{ epoch: string }>({
    name: 'svc_auth_epoch',
    text: 'select epoch from auth_epoch where id = 1',
  });
  const epoch = Number(rows[0]?.epoch ?? 0);
  // Only forwards: a slow read of an older epoch must not make newer entries look stale (or older ones fresh).
  if (epoch > seen.epoch) {
    invalidateAuthCaches();
    seen.epoch = epoch;
  }
}
