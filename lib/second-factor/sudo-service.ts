import { and, eq, lt } from 'drizzle-orm';
import { getDb, type DbOrTx } from '../db/client';
import * as t from '../db/schema';
import { ApiError } from '../errors';
import type { Principal } from '../auth/principal';
import { recordUserAuditEvent } from '../audit/record';
import type { AuditSource } from '../db/audit-types';
import { deleteInBatches } from '../db/batched-delete';
import { settings } from '../settings/settings';

/** How long a sign-in or re-authentication lets a console session do guarded things: SUDO_WINDOW_SECONDS, default 900. */
export function sudoWindowSeconds(): number {
  return settings().SUDO_WINDOW_SECONDS;
}

/** The proof a re-authentication used, as its audit event's reason. */
export type SudoMethod = 'sign_in' | 'password' | 'totp' | 'recovery_code' | 'passkey';

/** Opens (or renews) the session's window now, in the caller's transaction when it has one. */
export async function openSudoWindow(userId: string, sessionId: string, tx?: DbOrTx): Promise<Date> {
  const db = tx ?? (await getDb());
  const now = new Date();
  await db
    .insert(t.sessionSudo)
    .values({ sessionId, userId, authenticatedAt: now })
    .onConflictDoUpdate({ target: t.sessionSudo.sessionId, set: { authenticatedAt: now } });
  return new Date(now.getTime() + sudoWindowSeconds() * 1000);
}

/**
 * When the session's window closes, or null when it is closed or was never opened. Read from the database on
 * every call (never cached), so a window opened through one instance holds on every other at once.
 */
export async function sudoExpiresAt(principal: Pick<Principal, 'id' | 'via' | 'sessionId'>): Promise<Date | null> {
  if (principal.via !== 'session' || !principal.sessionId) return null;
  const db = await getDb();
  const [row] = await db
    .select({ authenticatedAt: t.sessionSudo.authenticatedAt })
    .from(t.sessionSudo)
    .where(and(eq(t.sessionSudo.sessionId, principal.sessionId), eq(t.sessionSudo.userId, principal.id)))
    .limit(1);
  if (!row) return null;
  const expiresAt = new Date(row.authenticatedAt.getTime() + sudoWindowSeconds() * 1000);
  return expiresAt > new Date() ? expiresAt : null;
}

/** The check `route()` runs for operations marked `sudo` (server/hooks.ts): console sessions only, bearer credentials pass. */
export async function outsideSudo(principal: Principal): Promise<boolean> {
  return principal.via === 'session' && !(await sudoExpiresAt(principal));
}

/** A re-authentication that checked out: the window opens and `sudo.granted` goes to each of the user's organizations. */
export async function grantSudo(principal: Principal, method: SudoMethod, source: AuditSource): Promise<Date> {
  if (!principal.sessionId) throw new ApiError('access_denied');
  const db = await getDb();
  return db.transaction(async (tx) => {
    const expiresAt = await openSudoWindow(principal.id, principal.sessionId!, tx);
    await recordUserAuditEvent(tx, principal.id, {
      ...source,
      action: 'sudo.granted',
      target: { type: 'user', id: principal.id, name: principal.name },
      reason: method,
    });
    return expiresAt;
  });
}

/** Windows older than any session can live (12 hours) serve nobody: housekeeping drops them. */
export async function pruneSudoWindows(now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - 12 * 60 * 60 * 1000);
  return deleteInBatches(t.sessionSudo, lt(t.sessionSudo.authenticatedAt, cutoff));
}
