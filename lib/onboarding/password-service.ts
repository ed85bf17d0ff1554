import { and, eq, gt, sql } from 'drizzle-orm';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { ApiError, notFound } from '../errors';
import { hashPassword } from '../auth/password';
import { invalidateAuthCaches } from '../auth/cache';
import { createOrganizationWithAdmin, joinOrganization } from '../members/join-service';
import type { AuditSource } from '../db/audit-types';
import { newLinkToken, tokenHash } from './tokens';
import type { SetPasswordBody } from './schema';

const LINK_HOURS = 24;

export type NewUser = { email: string; name: string; organization?: string; admin: boolean };

/**
 * `npm run user:create`: the user (no password yet), optionally a member of the organization of that name with
 * BasicAccess or OrganizationAdmin (`admin`), or the OrganizationAdmin of a new one when none has the name, and a
 * one-time set-password token valid 24 hours. One transaction; the token is returned for the link and only its hash
 * stored.
 */
export async function createUserWithLink(input: NewUser, source: AuditSource) {
  const db = await getDb();
  const { token, hash } = newLinkToken();
  const result = await db.transaction(async (tx) => {
    const [user] = await tx
      .insert(t.users)
      .values({ email: input.email, name: input.name })
      .onConflictDoNothing()
      .returning({ id: t.users.id, email: t.users.email, name: t.users.name });
    if (!user) throw new ApiError('email_taken');
    let organization: { id: string; name: string } | null = null;
    let policy: string | null = null;
    if (input.organization) {
      [organization] = await tx
        .select({ id: t.organizations.id, name: t.organizations.name })
        .from(t.organizations)
        .where(eq(t.organizations.name, input.organization))
        .limit(1);
      if (organization) {
        policy = input.admin ? 'OrganizationAdmin' : 'BasicAccess';
        const policies = [{ policy, projectId: null }];
        await joinOrganization(tx, { organizationId: organization.id, user, policies, source, reason: null });
      } else {
        organization = await createOrganizationWithAdmin(tx, { name: input.organization, admin: user, source });
        policy = 'OrganizationAdmin';
      }
    }
    const expiresAt = new Date(Date.now() + LINK_HOURS * 3600_000);
    await tx.insert(t.passwordTokens).values({ tokenHash: hash, userId: user.id, expiresAt });
    return { user, organization, policy, expiresAt };
  });
  return { ...result, token };
}

/**
 * A set-password link used: the password is stored (hashed), every other link of the user dies, and their existing
 * sessions end. Unknown, used or expired: 404, nothing changed.
 */
export async function setPasswordWithToken(input: SetPasswordBody): Promise<void> {
  const passwordHash = await hashPassword(input.password);
  const db = await getDb();
  await db.transaction(async (tx) => {
    const [used] = await tx
      .delete(t.passwordTokens)
      .where(and(eq(t.passwordTokens.tokenHash, tokenHash(input.token)), gt(t.passwordTokens.expiresAt, new Date())))
      .returning({ userId: t.passwordTokens.userId });
    if (!used) throw notFound('This link is unknown, already used or expired: ask your operator for a new one.');
    await tx
      .update(t.users)
      .set({ passwordHash, sessionVersion: sql`${t.users.sessionVersion} + 1`, updatedAt: new Date() })
      .where(eq(t.users.id, used.userId));
    await tx.delete(t.passwordTokens).where(eq(t.passwordTokens.userId, used.userId));
  });
  // Sessions carry the version they were issued under: the bump ends them, here and (by TTL) elsewhere.
  invalidateAuthCaches();
}
