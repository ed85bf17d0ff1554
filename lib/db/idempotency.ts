import { and, eq, lt, sql } from 'drizzle-orm';
import { getDb } from './client';
import * as t from './schema';
import { deleteInBatches } from './batched-delete';

export type IdempotencyScope = { organizationId: string; principal: string; method: string; path: string; key: string };
export type StoredResponse = { status: number; headers: Record<string, string>; body: string };
export type IdempotencyRecord = typeof t.idempotencyRecords.$inferSelect;
/** Proof of a claim: the record and the lock instant we set; a takeover changes the instant, voiding ours. */
export type Claim = { id: string; lockedUntil: Date };

const scopeWhere = (s: IdempotencyScope) =>
  and(
    eq(t.idempotencyRecords.principal, s.principal),
    eq(t.idempotencyRecords.method, s.method),
    eq(t.idempotencyRecords.path, s.path),
    eq(t.idempotencyRecords.key, s.key),
  );

/**
 * Claims the key with an INSERT the unique index arbitrates, so two instances sharing one database
 * cannot both run the request. Returns the claim, or the record that is already there.
 */
export async function claimIdempotencyKey(
  scope: IdempotencyScope,
  fingerprint: string,
  times: { now: Date; lockedUntil: Date; expiresAt: Date },
): Promise<{ claim: Claim } | { existing: IdempotencyRecord }> {
  const db = await getDb();
  const [inserted] = await db
    .insert(t.idempotencyRecords)
    .values({
      ...scope,
      fingerprint,
      state: 'in_progress',
      lockedUntil: times.lockedUntil,
      expiresAt: times.expiresAt,
      createdAt: times.now,
    })
    .onConflictDoNothing()
    .returning({ id: t.idempotencyRecords.id });
  if (inserted) return { claim: { id: inserted.id, lockedUntil: times.lockedUntil } };
  const [existing] = await db.select().from(t.idempotencyRecords).where(scopeWhere(scope));
  if (!existing) return claimIdempotencyKey(scope, fingerprint, times); // deleted (a 5xx) between the two statements
  return { existing };
}

/**
 * Takes over a record that has expired or whose owner stopped renewing it (a crashed instance).
 * Conditional on the record being unchanged since it was read, so only one taker wins.
 */
export async function takeOverIdempotencyKey(
  existing: IdempotencyRecord,
  fingerprint: string,
  times: { now: Date; lockedUntil: Date; expiresAt: Date },
): Promise<Claim | null> {
  const db = await getDb();
  const unchanged = existing.lockedUntil
    ? eq(t.idempotencyRecords.lockedUntil, existing.lockedUntil)
    : sql`${t.idempotencyRecords.lockedUntil} is null`;
  const [row] = await db
    .update(t.idempotencyRecords)
    .set({
      fingerprint,
      state: 'in_progress',
      responseStatus: null,
      responseHeaders: null,
      responseBody: null,
      createdAt: times.now,
      lockedUntil: times.lockedUntil,
      expiresAt: times.expiresAt,
    })
    .where(
      and(eq(t.idempotencyRecords.id, existing.id), eq(t.idempotencyRecords.expiresAt, existing.expiresAt), unchanged),
    )
    .returning({ id: t.idempotencyRecords.id });
  return row ? { id: row.id, lockedUntil: times.lockedUntil } : null;
}

const stillOurs = (claim: Claim) =>
  and(
    eq(t.idempotencyRecords.id, claim.id),
    eq(t.idempotencyRecords.state, 'in_progress'),
    eq(t.idempotencyRecords.lockedUntil, claim.lockedUntil),
  );

export async function completeIdempotencyKey(claim: Claim, response: StoredResponse): Promise<void> {
  const db = await getDb();
  await db
    .update(t.idempotencyRecords)
    .set({
      state: 'done',
      responseStatus: response.status,
      responseHeaders: response.headers,
      responseBody: response.body,
      lockedUntil: null,
    })
    .where(stillOurs(claim));
}

/** Forgets a claim whose request failed on our side (5xx), so a retry runs again. */
export async function releaseIdempotencyKey(claim: Claim): Promise<void> {
  const db = await getDb();
  await db.delete(t.idempotencyRecords).where(stillOurs(claim));
}

/** Deletes records past their 24-hour retention (finished or abandoned); returns how many. */
export async function purgeExpiredIdempotencyRecords(now = new Date()): Promise<number> {
  return deleteInBatches(t.idempotencyRecords, lt(t.idempotencyRecords.expiresAt, now));
}
