import { and, eq, gt, isNull } from 'drizzle-orm';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { invalidateAuthCaches } from '../auth/cache';
import { bumpAuthEpoch } from '../auth/epoch';
import { recordAuditEvents } from '../audit/record';
import { userActor } from '../audit/source';
import { writeBindings } from '../access/grantable';
import type { AuditEventInput } from '../db/audit-types';

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
      .for('update');
    if (invitations.length === 0) return false;
    const [user] = await tx
      .insert(t.users)
      .values({ email: address, name: name.trim().slice(0, 100) || address })
      .onConflictDoNothing()
      .returning({ id: t.users.id, email: t.users.email, name: t.users.name });
    if (!user) return false;
    const context = { requestId: null, ip: null, userAgent: null };
    const actor = userActor(user, null);
    const events: AuditEventInput[] = [];
    // One organization's invitations join once: the first one's policies (the newest would do as well).
    const seen = new Set<string>();
    for (const invitation of invitations) {
      if (seen.has(invitation.organizationId)) continue;
      seen.add(invitation.organizationId);
      await tx.insert(t.memberships).values({ organizationId: invitation.organizationId, userId: user.id });
      await writeBindings(tx, invitation.organizationId, { type: 'user', id: user.id }, invitation.policies);
      events.push({
        actor,
        context,
        organizationId: invitation.organizationId,
        action: 'member.joined',
        target: { type: 'user', id: user.id, name: `${user.name} <${user.email}>` },
        changes: [{ field: 'policies', from: null, to: invitation.policies }],
        reason: 'single_sign_on',
      });
      await tx.update(t.invitations).set({ acceptedAt: new Date() }).where(eq(t.invitations.id, invitation.id));
      events.push({
        actor,
        context,
        organizationId: invitation.organizationId,
        action: 'invitation.accepted',
        target: { type: 'invitation', id: invitation.id, name: invitation.email },
      });
    }
    await bumpAuthEpoch(tx);
    await recordAuditEvents(tx, events);
    return true;
  });
  if (joined) invalidateAuthCaches();
  return joined;
}
