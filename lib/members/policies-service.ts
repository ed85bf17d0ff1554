import { and, eq } from 'drizzle-orm';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import type { InvitedPolicy } from '../db/onboarding-schema';
import { ApiError, idNotFound } from '../errors';
import type { Principal } from '../auth/principal';
import { invalidateAuthCaches } from '../auth/cache';
import { bumpAuthEpoch } from '../auth/epoch';
import { recordAuditEvent } from '../audit/record';
import type { AuditSource } from '../db/audit-types';
import { bindingsIn, bindingsByPrincipal } from '../access/service';
import { grantablePolicies, writeBindings } from '../access/grantable';
import { hasOtherAdmin, memberColumns, toMember } from './service';
import type { Member } from './schema';
import { lockOrganization } from '../orgs/service';

const isOrgAdmin = (b: InvitedPolicy) => b.policy === 'OrganizationAdmin' && b.projectId === null;

/** One member as the list shows it, or null when the user is not a member of the organization. */
export async function memberOf(organizationId: string, userId: string): Promise<Member | null> {
  const db = await getDb();
  const [row] = await db
    .select(memberColumns)
    .from(t.memberships)
    .innerJoin(t.users, eq(t.users.id, t.memberships.userId))
    .where(and(eq(t.memberships.organizationId, organizationId), eq(t.memberships.userId, userId)));
  if (!row) return null;
  const policies = await bindingsByPrincipal(organizationId, 'user', [userId]);
  return toMember(row, policies.get(userId) ?? []);
}

/**
 * Replaces a member's bindings in one transaction with `member.policies_changed` (before and after). Checks, in the
 * order of PRODUCT.md: what is given (400 at its path), the member (404), the last OrganizationAdmin (409). The
 * organization row is locked as removals lock it, so two changes cannot both take away the last admin. The epoch
 * bump makes every instance drop its cached grants: the member's keys, tokens and sessions feel it on their next request.
 */
export async function setMemberPolicies(
  organizationId: string,
  userId: string,
  requested: InvitedPolicy[],
  caller: Principal,
  source: AuditSource,
): Promise<Member> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    await lockOrganization(tx, organizationId);
    const [membership] = await tx
      .select({ name: t.users.name, email: t.users.email })
      .from(t.memberships)
      .innerJoin(t.users, eq(t.users.id, t.memberships.userId))
      .where(and(eq(t.memberships.organizationId, organizationId), eq(t.memberships.userId, userId)));
    const before = membership ? await bindingsIn(tx, organizationId, { type: 'user', id: userId }) : [];
    const after = await grantablePolicies(tx, organizationId, caller, requested, before);
    if (!membership) throw idNotFound('member', userId);
    if (before.some(isOrgAdmin) && !after.some(isOrgAdmin) && !(await hasOtherAdmin(tx, organizationId, userId)))
      throw new ApiError(
        'last_organization_admin',
        'The last OrganizationAdmin keeps it: make another member an admin first.',
      );
    await writeBindings(tx, organizationId, { type: 'user', id: userId }, after);
    await bumpAuthEpoch(tx);
    await recordAuditEvent(tx, {
      ...source,
      organizationId,
      action: 'member.policies_changed',
      target: { type: 'user', id: userId, name: `${membership.name} <${membership.email}>` },
      changes: [{ field: 'policies', from: before, to: after }],
    });
  });
  // After the commit: this instance's cached grants go now; the others on their next request's epoch read.
  invalidateAuthCaches();
  return (await memberOf(organizationId, userId))!;
}
