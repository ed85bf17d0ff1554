import { eq, inArray } from 'drizzle-orm';
import { getDb } from '../db/client';
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
