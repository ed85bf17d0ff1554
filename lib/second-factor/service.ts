import { and, count, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { getDb, type DbOrTx } from '../db/client';
import * as t from '../db/schema';
import { ApiError } from '../errors';
import { openSecret } from '../crypto/secret-box';
import type { Principal } from '../auth/principal';
import { invalidateAuthCaches } from '../auth/cache';
import { bumpAuthEpoch } from '../auth/epoch';
import { recordUserAuditEvent } from '../audit/record';
import type { AuditSource } from '../db/audit-types';
import { looksLikeTotp, newRecoveryCodes, recoveryCodeHash, totpStepOf } from './codes';
import { sudoExpiresAt } from './sudo-service';
import type { Security } from './schema';
import { queryRows } from '../db/statement';

/** The context a user's TOTP secret is sealed under, so a box copied to another user's row does not open. */
export const totpContext = (userId: string) => `totp:${userId}`;

/** Whether the user has a second factor: a confirmed TOTP or at least one passkey. */
export async function hasSecondFactor(db: DbOrTx, userId: string): Promise<boolean> {
  const rows = await queryRows<{ has: boolean }>(
    db,
    sql`
    select exists (select 1 from user_totp where user_id = ${userId} and confirmed_at is not null)
        or exists (select 1 from passkeys where user_id = ${userId}) as has`,
  );
  return Boolean(rows[0]?.has);
}

/** What `GET /v1/me/security` shows: the factors, never a secret. */
export async function securityOf(principal: Principal): Promise<Security> {
  const db = await getDb();
  const [totp] = await db
    .select({ confirmedAt: t.userTotp.confirmedAt })
    .from(t.userTotp)
    .where(eq(t.userTotp.userId, principal.id));
  const keys = await db
    .select({
      id: t.passkeys.id,
      name: t.passkeys.name,
      createdAt: t.passkeys.createdAt,
      lastUsedAt: t.passkeys.lastUsedAt,
    })
    .from(t.passkeys)
    .where(eq(t.passkeys.userId, principal.id))
    .orderBy(t.passkeys.createdAt);
  const [codes] = await db
    .select({ n: count() })
    .from(t.recoveryCodes)
    .where(and(eq(t.recoveryCodes.userId, principal.id), isNull(t.recoveryCodes.usedAt)));
  const sudo = await sudoExpiresAt(principal);
  return {
    totp: { enabled: Boolean(totp?.confirmedAt) },
    passkeys: keys.map((k) => ({
      id: k.id,
      name: k.name,
      createdAt: k.createdAt.toISOString(),
      lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
    })),
    recoveryCodesRemaining: Number(codes?.n ?? 0),
    sudoExpiresAt: sudo?.toISOString() ?? null,
  };
}

/** Replaces the user's recovery codes with ten new ones, in the caller's transaction; the plaintexts go back once. */
export async function replaceRecoveryCodes(tx: DbOrTx, userId: string): Promise<string[]> {
  const codes = newRecoveryCodes();
  await tx.delete(t.recoveryCodes).where(eq(t.recoveryCodes.userId, userId));
  await tx.insert(t.recoveryCodes).values(codes.map((code) => ({ userId, codeHash: recoveryCodeHash(code) })));
  return codes;
}

/** `POST /v1/me/recovery-codes`: ten new codes, the old ones dead; only for a user with a second factor. */
export async function regenerateRecoveryCodes(principal: Principal, source: AuditSource): Promise<string[]> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    if (!(await hasSecondFactor(tx, principal.id)))
      throw new ApiError(
        'second_factor_state_conflict',
        'Recovery codes come with a second factor: turn on TOTP or add a passkey first.',
      );
    const codes = await replaceRecoveryCodes(tx, principal.id);
    await recordUserAuditEvent(tx, principal.id, {
      ...source,
      action: 'recovery_codes.regenerated',
      target: { type: 'user', id: principal.id, name: principal.name },
    });
    return codes;
  });
}

/**
 * A TOTP code or a recovery code, at sign-in or re-authentication. Each works once: the TOTP step and the
 * recovery code are taken by one conditional UPDATE, so of two requests racing with the same code one wins.
 */
export async function verifySecondFactorCode(
  user: { id: string; name: string },
  code: string,
  source: AuditSource,
): Promise<'totp' | 'recovery_code' | null> {
  const trimmed = code.trim();
  if (trimmed.length === 0 || trimmed.length > 64) return null;
  const db = await getDb();
  if (looksLikeTotp(trimmed)) {
    const [row] = await db
      .select({ secretBox: t.userTotp.secretBox })
      .from(t.userTotp)
      .where(and(eq(t.userTotp.userId, user.id), isNotNull(t.userTotp.confirmedAt)));
    if (!row) return null;
    const step = totpStepOf(openSecret(row.secretBox, totpContext(user.id)), trimmed.replace(/\s/g, ''));
    if (step === null) return null;
    const taken = await db
      .update(t.userTotp)
      .set({ lastStep: step })
      .where(
        and(
          eq(t.userTotp.userId, user.id),
          isNotNull(t.userTotp.confirmedAt),
          sql`(${t.userTotp.lastStep} is null or ${t.userTotp.lastStep} < ${step})`,
        ),
      )
      .returning({ userId: t.userTotp.userId });
    return taken.length > 0 ? 'totp' : null;
  }
  return db.transaction(async (tx) => {
    const used = await tx
      .update(t.recoveryCodes)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(t.recoveryCodes.userId, user.id),
          eq(t.recoveryCodes.codeHash, recoveryCodeHash(trimmed)),
          isNull(t.recoveryCodes.usedAt),
        ),
      )
      .returning({ id: t.recoveryCodes.id });
    if (used.length === 0) return null;
    await recordUserAuditEvent(tx, user.id, {
      ...source,
      action: 'recovery_code.used',
      target: { type: 'user', id: user.id, name: user.name },
    });
    return 'recovery_code' as const;
  });
}

/** A user's record as the second-factor checks need it: email for labels and limits, the password hash for sudo. */
export async function userForSecondFactor(userId: string) {
  const db = await getDb();
  const [user] = await db
    .select({ id: t.users.id, name: t.users.name, email: t.users.email, passwordHash: t.users.passwordHash })
    .from(t.users)
    .where(eq(t.users.id, userId));
  return user ?? null;
}

/** Whether the user (by email) must give a second factor after the password, and which kinds they have. */
export async function secondFactorsOf(userId: string): Promise<{ totp: boolean; passkeys: number }> {
  const db = await getDb();
  const rows = await queryRows<{ totp: boolean; passkeys: number }>(
    db,
    sql`
    select exists (select 1 from user_totp where user_id = ${userId} and confirmed_at is not null) as totp,
      (select count(*)::int from passkeys where user_id = ${userId}) as passkeys`,
  );
  return { totp: Boolean(rows[0]?.totp), passkeys: Number(rows[0]?.passkeys ?? 0) };
}

/**
 * The operator's way out for a user who lost every factor (`npm run user:reset-2fa -- EMAIL`): their TOTP,
 * passkeys and recovery codes go, every session ends (session version bump), and `two_factor.reset` goes to
 * each of their organizations, all in one transaction. Returns false for an unknown email.
 */
export async function resetSecondFactors(email: string, source: AuditSource): Promise<boolean> {
  const db = await getDb();
  const done = await db.transaction(async (tx) => {
    const [user] = await tx
      .update(t.users)
      .set({ sessionVersion: sql`${t.users.sessionVersion} + 1`, updatedAt: new Date() })
      .where(eq(t.users.email, email.trim().toLowerCase()))
      .returning({ id: t.users.id, name: t.users.name });
    if (!user) return false;
    await tx.delete(t.userTotp).where(eq(t.userTotp.userId, user.id));
    await tx.delete(t.passkeys).where(eq(t.passkeys.userId, user.id));
    await tx.delete(t.recoveryCodes).where(eq(t.recoveryCodes.userId, user.id));
    await tx.delete(t.sessionSudo).where(eq(t.sessionSudo.userId, user.id));
    await bumpAuthEpoch(tx);
    await recordUserAuditEvent(tx, user.id, {
      ...source,
      action: 'two_factor.reset',
      target: { type: 'user', id: user.id, name: user.name },
    });
    return true;
  });
  if (done) invalidateAuthCaches();
  return done;
}
