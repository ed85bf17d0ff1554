import { getDb } from '../db/client';
import * as t from '../db/schema';
import { joinOrganization } from '../members/join-service';
import type { AuditSource } from '../db/audit-types';
import { ScimError, type ScimUserRow } from './resource';
import { scimUserColumns } from './service';

/**
 * POST /scim/v2/Users (RFC 7644 §3.3): a new user (`userName` = email) and their membership with BasicAccess in the
 * token's organization, one transaction with `member.joined`. An email any user has already: 409 `uniqueness`,
 * nothing changed (the users table's unique email decides, so two creations at once cannot both pass).
 */
export async function provisionScimUser(
  organizationId: string,
  input: { email: string; name: string; externalId: string | null; active: boolean },
  source: AuditSource,
): Promise<ScimUserRow> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [user] = await tx
      .insert(t.users)
      .values({
        email: input.email,
        name: input.name,
        scimExternalId: input.externalId,
        status: input.active ? 'active' : 'suspended',
      })
      .onConflictDoNothing()
      .returning(scimUserColumns);
    if (!user) throw new ScimError(409, `A user with userName ${input.email} exists already.`, 'uniqueness');
    const policies = [{ policy: 'BasicAccess', projectId: null }];
    await joinOrganization(tx, { organizationId, user, policies, source, reason: 'scim' });
    return user;
  });
}
