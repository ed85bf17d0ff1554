import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { getDb, type Tx } from '../db/client';
import * as t from '../db/schema';
import { ApiError, invalidRequest, notFound, type Issue } from '../errors';
import type { Principal } from '../auth/principal';
import { hashPassword } from '../auth/password';
import { invalidateAuthCaches } from '../auth/cache';
import { recordAuditEvent } from '../audit/record';
import { userActor } from '../audit/source';
import type { AuditContext } from '../db/audit-types';
import { joinOrganization } from '../members/join-service';
import { tokenHash } from './tokens';
import type { AcceptInvitationBody } from './invitation-schema';

const GONE = 'This invitation is unknown, already used, revoked or expired: ask for a new one.';

/** The pending invitation a token names, with its organization and inviter; `lock` holds it against a second use. */
async function pendingByToken(tx: Tx, token: string, lock: boolean) {
  const query = tx
    .select({
      invitation: t.invitations,
      organizationName: t.organizations.name,
      inviterName: t.users.name,
    })
    .from(t.invitations)
    .innerJoin(t.organizations, eq(t.organizations.id, t.invitations.organizationId))
    .innerJoin(t.users, eq(t.users.id, t.invitations.invitedBy))
    .where(
      and(
        eq(t.invitations.tokenHash, tokenHash(token)),
        isNull(t.invitations.acceptedAt),
        isNull(t.invitations.revokedAt),
        gt(t.invitations.expiresAt, new Date()),
      ),
    );
  const [row] = lock ? await query.for('update', { of: t.invitations }) : await query;
  if (!row) throw notFound(GONE);
  return row;
}

/** What the invitee sees before accepting: the organization, who invited them, and the invited email. */
export async function previewInvitation(token: string) {
  const db = await getDb();
  const row = await db.transaction((tx) => pendingByToken(tx, token, false));
  return {
    organization: { id: row.invitation.organizationId, name: row.organizationName },
    inviter: { name: row.inviterName },
    email: row.invitation.email,
    expiresAt: row.invitation.expiresAt.toISOString(),
  };
}

/**
 * Accepts an invitation once: signed in as the invited email (joins), or with `{name, password}` when no user has it
 * (the user is made, and joins). In the order of PRODUCT.md: 400 (a new account's missing fields) → 404 (token) →
 * 403 (another email; a key or token) → 409 (already a member). One transaction with `invitation.accepted` and
 * `member.joined`; the invitation row's lock makes a second use wait and then find it used (404).
 */
export async function acceptInvitation(
  token: string,
  body: AcceptInvitationBody,
  caller: Principal | null,
  context: AuditContext,
) {
  if (!caller) {
    const issues: Issue[] = [];
    if (!body?.name) issues.push({ path: 'name', message: 'Enter your name to make your account.' });
    if (!body?.password) issues.push({ path: 'password', message: 'Choose a password to make your account.' });
    if (issues.length > 0) throw invalidRequest(issues, 'Sign in as the invited email, or make the account.');
  }
  const passwordHash = caller ? null : await hashPassword(body!.password!);
  const db = await getDb();
  const result = await db.transaction(async (tx) => {
    const { invitation, organizationName } = await pendingByToken(tx, token, true);
    let user: { id: string; email: string; name: string };
    if (caller) {
      if (caller.type !== 'user' || caller.via !== 'session')
        throw new ApiError('access_denied', 'An invitation is accepted by a person signed in to the console.');
      const [me] = await tx
        .select({ id: t.users.id, email: t.users.email, name: t.users.name })
        .from(t.users)
        .where(eq(t.users.id, caller.id));
      if (me.email !== invitation.email) throw new ApiError('invitation_email_mismatch');
      user = me;
      const [member] = await tx
        .select({ one: sql<number>`1` })
        .from(t.memberships)
        .where(and(eq(t.memberships.organizationId, invitation.organizationId), eq(t.memberships.userId, me.id)));
      if (member) throw new ApiError('already_member', 'You are already a member of this organization.');
    } else {
      const [made] = await tx
        .insert(t.users)
        .values({ email: invitation.email, name: body!.name!, passwordHash })
        .onConflictDoNothing()
        .returning({ id: t.users.id, email: t.users.email, name: t.users.name });
      if (!made)
        throw new ApiError('unauthenticated', `An account for ${invitation.email} exists: sign in as it, then accept.`);
      user = made;
    }
    const organizationId = invitation.organizationId;
    await tx.update(t.invitations).set({ acceptedAt: new Date() }).where(eq(t.invitations.id, invitation.id));
    const source = { actor: userActor(user, caller ? 'session' : null), context };
    await recordAuditEvent(tx, {
      ...source,
      organizationId,
      action: 'invitation.accepted',
      target: { type: 'invitation', id: invitation.id, name: invitation.email },
    });
    await joinOrganization(tx, { organizationId, user, policies: invitation.policies, source, reason: 'invitation' });
    return { user, organization: { id: organizationId, name: organizationName } };
  });
  invalidateAuthCaches();
  return result;
}
