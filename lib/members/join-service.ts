import { getDb, type DbOrTx } from '../db/client';
import * as t from '../db/schema';
import type { InvitedPolicy } from '../db/onboarding-schema';
import type { AuditSource } from '../db/audit-types';
import type { Principal } from '../auth/principal';
import { invalidateAuthCaches } from '../auth/cache';
import { bumpAuthEpoch } from '../auth/epoch';
import { recordAuditEvent } from '../audit/record';
import { writeBindings } from '../access/grantable';
import { toOrganization, type Organization } from '../orgs/schema';

// How a user comes to be a member: by joining an organization (every door calls joinOrganization) or by
// creating one (createOrganizationWithAdmin). Both run inside the caller's transaction.

/** The user who joins, as `member.joined` names them. */
export type Joiner = { id: string; name: string; email: string };

/** The door a user joined by, the `reason` of `member.joined`; null for an operator's `user:create`. */
export type JoinReason = 'invitation' | 'single_sign_on' | 'scim' | null;

async function addMember(tx: DbOrTx, organizationId: string, userId: string, policies: InvitedPolicy[]) {
  await tx.insert(t.memberships).values({ organizationId, userId });
  await writeBindings(tx, organizationId, { type: 'user', id: userId }, policies);
}

/**
 * A user joins an organization with these policies, whichever door they came by (an invitation, single sign-on,
 * `user:create`, SCIM): the membership, its bindings and `member.joined`, in the caller's transaction. The auth epoch
 * moves with it, so no instance keeps a membership it cached as absent; a caller whose user may have been looked up
 * before calls `invalidateAuthCaches` after the commit. The event is written last: it holds the organization's audit
 * chain until the commit.
 */
export async function joinOrganization(
  tx: DbOrTx,
  join: { organizationId: string; user: Joiner; policies: InvitedPolicy[]; source: AuditSource; reason: JoinReason },
): Promise<void> {
  const { organizationId, user, policies } = join;
  await addMember(tx, organizationId, user.id, policies);
  await bumpAuthEpoch(tx);
  await recordAuditEvent(tx, {
    ...join.source,
    organizationId,
    action: 'member.joined',
    target: { type: 'user', id: user.id, name: `${user.name} <${user.email}>` },
    changes: [{ field: 'policies', from: null, to: policies }],
    reason: join.reason,
  });
}

/**
 * A new organization with `admin` as its OrganizationAdmin, in the caller's transaction, with `organization.created`
 * (which stands for the admin's joining too). Nothing can have looked the new organization up, so no epoch moves.
 */
export async function createOrganizationWithAdmin(
  tx: DbOrTx,
  input: { name: string; admin: { id: string }; source: AuditSource; reason?: string },
) {
  const [row] = await tx.insert(t.organizations).values({ name: input.name }).returning();
  await addMember(tx, row.id, input.admin.id, [{ policy: 'OrganizationAdmin', projectId: null }]);
  await recordAuditEvent(tx, {
    ...input.source,
    organizationId: row.id,
    action: 'organization.created',
    target: { type: 'organization', id: row.id, name: row.name },
    changes: [{ field: 'name', from: null, to: row.name }],
    reason: input.reason ?? null,
  });
  return row;
}

/** `POST /v1/organizations`: a person signed in to the console makes an organization and is its OrganizationAdmin. */
export async function createOrganization(creator: Principal, name: string, source: AuditSource): Promise<Organization> {
  const db = await getDb();
  const row = await db.transaction((tx) => createOrganizationWithAdmin(tx, { name, admin: creator, source }));
  // A membership looked up (and cached as absent) before this commit must not hide the new organization.
  invalidateAuthCaches();
  return toOrganization(row);
}
