import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { invalidateAuthCaches } from '../auth/cache';
import { recordAuditEvent } from '../audit/record';
import { userActor } from '../audit/source';
import { joinOrganization } from '../members/join-service';

/**
 * The first single sign-on of an email no user has: when it has pending invitations, the user is made (no password:
 * they sign in through the identity provider) and joins each inviting organization, in one transaction with
 * `invitation.accepted` and `member.joined` there. False when there is no pending invitation: nothing changes.
 */
export async function joinInvitedBySso(email: string, name: string): Promise<boolean> {
  const address = email.trim().toLowerCase();
  const db = await getDb();
  const joined = await db.transaction(async (tx) => {
    const invitations = await tx
      .select()
      .from(t.invitations)
      .where(
        and(
          eq(t.invitations.email, address),
          isNull(t.invitations.acceptedAt),
          isNull(t.invitations.revokedAt),
          gt(t.invitations.expiresAt, new Date()),
        ),
      )
      .orderBy(asc(t.invitations.organizationId), asc(t.invitations.createdAt))
      .for('update');
    if (invitations.length === 0) return false;
    const [user] = await tx
      .insert(t.users)
      .values({ email: address, name: name.trim().slice(0, 100) || address })
      .onConflictDoNothing()
      .returning({ id: t.users.id, email: t.users.email, name: t.users.name });
    if (!user) return false;
    const source = { actor: userActor(user, null), context: { requestId: null, ip: null, userAgent: null } };
    // One organization's invitations join once, with the oldest one's policies; organizations in id order, the
    // order their audit chains are locked in everywhere.
    const seen = new Set<string>();
    for (const invitation of invitations) {
      const { organizationId } = invitation;
      if (seen.has(organizationId)) continue;
      seen.add(organizationId);
      await tx.update(t.invitations).set({ acceptedAt: new Date() }).where(eq(t.invitations.id, invitation.id));
      await recordAuditEvent(tx, {
        ...source,
        organizationId,
        action: 'invitation.accepted',
        target: { type: 'invitation', id: invitation.id, name: invitation.email },
      });
      await joinOrganization(tx, {
        organizationId,
        user,
        policies: invitation.policies,
        source,
        reason: 'single_sign_on',
      });
    }
    return true;
  });
  if (joined) invalidateAuthCaches();
  return joined;
}
