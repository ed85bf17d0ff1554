import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { ApiError, invalidRequest } from '../errors';
import { openSecret, sealSecret } from '../crypto/secret-box';
import type { Principal } from '../auth/principal';
import { invalidateAuthCaches } from '../auth/cache';
import { bumpAuthEpoch } from '../auth/epoch';
import { recordUserAuditEvent } from '../audit/record';
import type { AuditSource } from '../db/audit-types';
import { newTotpSecret, totpStepOf } from './codes';
import { hasSecondFactor, replaceRecoveryCodes, totpContext } from './service';

const alreadyOn = () =>
  new ApiError('second_factor_state_conflict', 'TOTP is already on; turn it off first to enrol another app.');

/** `POST /v1/me/totp`: a new secret, pending until confirmed; a pending one is replaced, an enabled one refused. */
export async function startTotpEnrolment(principal: Principal, email: string) {
  const enrolment = newTotpSecret(email);
  const secretBox = sealSecret(enrolment.secret, totpContext(principal.id));
  const db = await getDb();
  const written = await db
    .insert(t.userTotp)
    .values({ userId: principal.id, secretBox })
    .onConflictDoUpdate({
      target: t.userTotp.userId,
      set: { secretBox, createdAt: new Date(), lastStep: null },
      setWhere: isNull(t.userTotp.confirmedAt),
    })
    .returning({ userId: t.userTotp.userId });
  if (written.length === 0) throw alreadyOn();
  return enrolment;
}

/**
 * `POST /v1/me/totp/confirm`: a correct code turns TOTP on (its step is used up), in one transaction with the
 * recovery codes of a first second factor and `two_factor.enabled`. A wrong code is 400 at `code`.
 */
export async function confirmTotp(principal: Principal, code: string, source: AuditSource): Promise<string[]> {
  const db = await getDb();
  const [pending] = await db.select().from(t.userTotp).where(eq(t.userTotp.userId, principal.id));
  if (!pending) throw new ApiError('second_factor_state_conflict', 'Start the enrolment first: POST /v1/me/totp.');
  if (pending.confirmedAt) throw alreadyOn();
  const step = totpStepOf(openSecret(pending.secretBox, totpContext(principal.id)), code);
  if (step === null)
    throw invalidRequest([{ path: 'code', message: 'This code is not right; check the time on your device.' }]);
  const codes = await db.transaction(async (tx) => {
    const first = !(await hasSecondFactor(tx, principal.id));
    const confirmed = await tx
      .update(t.userTotp)
      .set({ confirmedAt: new Date(), lastStep: step })
      .where(
        and(
          eq(t.userTotp.userId, principal.id),
          isNull(t.userTotp.confirmedAt),
          eq(t.userTotp.secretBox, pending.secretBox),
        ),
      )
      .returning({ userId: t.userTotp.userId });
    if (confirmed.length === 0) throw alreadyOn();
    const recoveryCodes = first ? await replaceRecoveryCodes(tx, principal.id) : [];
    await bumpAuthEpoch(tx);
    await recordUserAuditEvent(tx, principal.id, {
      ...source,
      action: 'two_factor.enabled',
      target: { type: 'user', id: principal.id, name: principal.name },
      reason: 'totp',
    });
    return recoveryCodes;
  });
  invalidateAuthCaches();
  return codes;
}

/** `DELETE /v1/me/totp`: off, and with the last factor gone its recovery codes go too. */
export async function disableTotp(principal: Principal, source: AuditSource): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const removed = await tx
      .delete(t.userTotp)
      .where(and(eq(t.userTotp.userId, principal.id), isNotNull(t.userTotp.confirmedAt)))
      .returning({ userId: t.userTotp.userId });
    if (removed.length === 0) throw new ApiError('not_found', 'TOTP is not on.');
    if (!(await hasSecondFactor(tx, principal.id)))
      await tx.delete(t.recoveryCodes).where(eq(t.recoveryCodes.userId, principal.id));
    await bumpAuthEpoch(tx);
    await recordUserAuditEvent(tx, principal.id, {
      ...source,
      action: 'two_factor.disabled',
      target: { type: 'user', id: principal.id, name: principal.name },
      reason: 'totp',
    });
  });
  invalidateAuthCaches();
}
