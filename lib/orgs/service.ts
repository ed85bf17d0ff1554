import { eq, inArray } from 'drizzle-orm';
import { getDb, type DbOrTx } from '../db/client';
import * as t from '../db/schema';
import type { Principal } from '../auth/principal';
import { mapPage, pageInCreationOrder } from '../http/page-rows';
import type { Page, PageQuery } from '../http/pagination';
import { toOrganization, type Organization, type Project } from './schema';

/** The organizations the caller is in: all of a user's memberships, or the one an API key or bot acts in. */
export async function listOrganizations(principal: Principal, page: PageQuery): Promise<Page<Organization>> {
  const db = await getDb();
  const scope = principal.organizationId
    ? eq(t.organizations.id, principal.organizationId)
    : inArray(
        t.organizations.id,
        db
          .select({ id: t.memberships.organizationId })
          .from(t.memberships)
          .where(eq(t.memberships.userId, principal.id)),
      );
  const rows = await pageInCreationOrder(t.organizations, scope, page);
  return mapPage(rows, toOrganization);
}

export async function listProjects(organizationId: string, page: PageQuery): Promise<Page<Project>> {
  const rows = await pageInCreationOrder(t.projects, eq(t.projects.organizationId, organizationId), page);
  return mapPage(rows, (r) => ({
    id: r.id,
    organizationId: r.organizationId,
    name: r.name,
    alertingEnabled: r.alertingEnabled,
  }));
}

/**
 * Locks the organization's row to the end of the caller's transaction (NO KEY UPDATE): a mutex among the changes of
 * its members and project names that still lets a concurrent audit write check its foreign key (KEY SHARE) on this
 * row; FOR UPDATE would deadlock against a writer holding the chain head.
 */
export async function lockOrganization(tx: DbOrTx, organizationId: string): Promise<void> {
  await tx
    .select({ id: t.organizations.id })
    .from(t.organizations)
    .where(eq(t.organizations.id, organizationId))
    .for('no key update');
}
