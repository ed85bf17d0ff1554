import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import type { Principal } from '../auth/principal';
import { afterCursor, toPage, type Page, type PageQuery } from '../http/pagination';
import type { Bot, Member, Organization, Project } from './schema';

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
  return toPage(
    rows,
    page.limit,
    (r) => r.createdAt,
    (r) => ({ id: r.id, name: r.name }),
  );
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

async function bindingsOf(organizationId: string, type: 'user' | 'bot', ids: string[]) {
  if (ids.length === 0) return new Map<string, { policy: string; projectId: string | null }[]>();
  const db = await getDb();
  const rows = await db
    .select({
      principalId: t.policyBindings.principalId,
      policy: t.policyBindings.policy,
      projectId: t.policyBindings.projectId,
    })
    .from(t.policyBindings)
    .where(
      and(
        eq(t.policyBindings.organizationId, organizationId),
        eq(t.policyBindings.principalType, type),
        inArray(t.policyBindings.principalId, ids),
      ),
    )
    .orderBy(asc(t.policyBindings.createdAt), asc(t.policyBindings.id));
  const byPrincipal = new Map<string, { policy: string; projectId: string | null }[]>();
  for (const row of rows) {
    const list = byPrincipal.get(row.principalId) ?? [];
    list.push({ policy: row.policy, projectId: row.projectId });
    byPrincipal.set(row.principalId, list);
  }
  return byPrincipal;
}

export async function listMembers(organizationId: string, page: PageQuery): Promise<Page<Member>> {
  const db = await getDb();
  const rows = await db
    .select({
      id: t.users.id,
      email: t.users.email,
      name: t.users.name,
      status: t.users.status,
      joinedAt: t.memberships.joinedAt,
    })
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
  const policies = await bindingsOf(
    organizationId,
    'user',
    rows.map((r) => r.id),
  );
  return toPage(
    rows,
    page.limit,
    (r) => r.joinedAt,
    (r) => ({
      userId: r.id,
      email: r.email,
      name: r.name,
      status: r.status,
      policies: policies.get(r.id) ?? [],
      joinedAt: r.joinedAt.toISOString(),
    }),
  );
}

export async function listBots(organizationId: string, page: PageQuery): Promise<Page<Bot>> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(t.bots)
    .where(
      and(
        eq(t.bots.organizationId, organizationId),
        isNull(t.bots.deletedAt),
        afterCursor(page.cursor, t.bots.createdAt, t.bots.id, 'asc'),
      ),
    )
    .orderBy(asc(t.bots.createdAt), asc(t.bots.id))
    .limit(page.limit + 1);
  const policies = await bindingsOf(
    organizationId,
    'bot',
    rows.map((r) => r.id),
  );
  return toPage(
    rows,
    page.limit,
    (r) => r.createdAt,
    (r) => ({
      id: r.id,
      name: r.name,
      createdAt: r.createdAt.toISOString(),
      policies: policies.get(r.id) ?? [],
    }),
  );
}
