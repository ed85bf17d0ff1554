import { and, asc, eq, inArray } from 'drizzle-orm';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import type { Principal } from '../auth/principal';
import { afterCursor, toPage, type Page, type PageQuery } from '../http/pagination';
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
  const rows = await db
    .select()
    .from(t.organizations)
    .where(and(scope, afterCursor(page.cursor, t.organizations.createdAt, t.organizations.id, 'asc')))
    .orderBy(asc(t.organizations.createdAt), asc(t.organizations.id))
    .limit(page.limit + 1);
  return toPage(rows, page.limit, (r) => r.createdAt, toOrganization);
}

export async function listProjects(organizationId: string, page: PageQuery): Promise<Page<Project>> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(t.projects)
    .where(
      and(
        eq(t.projects.organizationId, organizationId),
        afterCursor(page.cursor, t.projects.createdAt, t.projects.id, 'asc'),
      ),
    )
    .orderBy(asc(t.projects.createdAt), asc(t.projects.id))
    .limit(page.limit + 1);
  return toPage(
    rows,
    page.limit,
    (r) => r.createdAt,
    (r) => ({
      id: r.id,
      organizationId: r.organizationId,
      name: r.name,
      alertingEnabled: r.alertingEnabled,
    }),
  );
}
