import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { getDb, type Tx } from '../db/client';
import * as t from '../db/schema';
import { bindingsByPrincipal, removeBindingsOf } from '../access/service';
import { keyRevokedEvent, revokeKeysOf } from '../api-keys/service';
import { ApiError, idNotFound } from '../errors';
import { invalidateAuthCaches } from '../auth/cache';
import { bumpAuthEpoch } from '../auth/epoch';
import { recordAuditEvents } from '../audit/record';
import type { AuditSource } from '../db/audit-types';
import { afterCursor, toPage, type Page, type PageQuery } from '../http/pagination';
import type { Member } from './schema';
import { lockOrganization } from '../orgs/service';

/** A member's columns, users joined to memberships: what the list and one member read. */
export const memberColumns = {
  id: t.users.id,
  email: t.users.email,
  name: t.users.name,
  status: t.users.status,
  joinedAt: t.memberships.joinedAt,
  twoFactorEnabled: sql<boolean>`(exists (select 1 from user_totp f where f.user_id = ${t.users.id} and f.confirmed_at is not null)
    or exists (select 1 from passkeys p where p.user_id = ${t.users.id}))`,
};

type MemberRow = {
  id: string;
  email: string;
  name: string;
  status: Member['status'];
  joinedAt: Date;
  twoFactorEnabled: boolean;
};

/** A row of `memberColumns` with the member's bindings, as the API answers it. */
export const toMember = (r: MemberRow, policies: Member['policies']): Member => ({
  userId: r.id,
  email: r.email,
  name: r.name,
  status: r.status,
  policies,
  joinedAt: r.joinedAt.toISOString(),
  twoFactorEnabled: Boolean(r.twoFactorEnabled),
});

export async function listMembers(organizationId: string, page: PageQuery): Promise<Page<Member>> {
  const db = await getDb();
  const rows = await db
    .select(memberColumns)
    .from(t.memberships)
    .innerJoin(t.users, eq(t.users.id, t.memberships.userId))
    .where(
      and(
        eq(t.memberships.organizationId, organizationId),
        afterCursor(page.cursor, t.memberships.joinedAt, t.memberships.userId, 'asc'),
      ),
    )
    .orderBy(asc(t.memberships.joinedAt), asc(t.memberships.userId))
    .limit(page.limit + 1);
  const policies = await bindingsByPrincipal(
    organizationId,
    'user',
    rows.map((r) => r.id),
  );
  return toPage(
    rows,
    page.limit,
    (r) => r.joinedAt,
    (r) => toMember(r, policies.get(r.id) ?? []),
  );
}

/** Whether someone other than `userId` is still an active OrganizationAdmin of the organization. */
export async function hasOtherAdmin(tx: Tx, organizationId: string, userId: string): Promise<boolean> {
  const rows = await tx
    .select({ one: sql<number>`1` })
    .from(t.policyBindings)
    .innerJoin(t.users, eq(t.users.id, t.policyBindings.principalId))
    .innerJoin(
      t.memberships,
      and(eq(t.memberships.userId, t.users.id), eq(t.memberships.organizationId, organizationId)),
    )
    .where(
      and(
        eq(t.policyBindings.organizationId, organizationId),
        eq(t.policyBindings.principalType, 'user'),
        sql`${t.policyBindings.projectId} is null`,
        eq(t.policyBindings.policy, 'OrganizationAdmin'),
        ne(t.users.id, userId),
        eq(t.users.status, 'active'),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

export async function isAdmin(tx: Tx, organizationId: string, userId: string): Promise<boolean> {
  const rows = await tx
    .select({ one: sql<number>`1` })
    .from(t.policyBindings)
    .where(
      and(
        eq(t.policyBindings.organizationId, organizationId),
        eq(t.policyBindings.principalType, 'user'),
        eq(t.policyBindings.principalId, userId),
        sql`${t.policyBindings.projectId} is null`,
        eq(t.policyBindings.policy, 'OrganizationAdmin'),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/**
 * Ends a membership in one transaction: the membership, the user's policy bindings in the organization,
 * and every API key the user owns there (revoked with `reason`). The organization row is locked so two
 * removals cannot both take away the last OrganizationAdmin.
 */
export async function endMembership(
  organizationId: string,
  userId: string,
  reason: 'member_removed' | 'member_left',
  source: AuditSource,
): Promise<{ revokedKeys: number }> {
  const db = await getDb();
  const result = await db.transaction(async (tx) => {
    await lockOrganization(tx, organizationId);
    const [membership] = await tx
      .select({ userId: t.memberships.userId, name: t.users.name, email: t.users.email })
      .from(t.memberships)
      .innerJoin(t.users, eq(t.users.id, t.memberships.userId))
      .where(and(eq(t.memberships.organizationId, organizationId), eq(t.memberships.userId, userId)));
    if (!membership) throw idNotFound('member', userId);
    if ((await isAdmin(tx, organizationId, userId)) && !(await hasOtherAdmin(tx, organizationId, userId))) {
      throw new ApiError('last_organization_admin');
    }
    await removeBindingsOf(tx, organizationId, { type: 'user', id: userId });
    await tx
      .delete(t.memberships)
      .where(and(eq(t.memberships.organizationId, organizationId), eq(t.memberships.userId, userId)));
    const revoked = await revokeKeysOf(tx, { type: 'user', id: userId }, reason, {
      organizationId,
      byId: source.actor.id,
    });
    await bumpAuthEpoch(tx);
    await recordAuditEvents(tx, [
      {
        ...source,
        organizationId,
        action: reason === 'member_left' ? 'member.left' : 'member.removed',
        target: { type: 'user', id: userId, name: `${membership.name} <${membership.email}>` },
      },
      ...revoked.map((key) => keyRevokedEvent(key, reason, source)),
    ]);
    return { revokedKeys: revoked.length };
  });
  // After the commit: cached memberships, grants and keys of this user must not outlive it.
  invalidateAuthCaches();
  return result;
}
