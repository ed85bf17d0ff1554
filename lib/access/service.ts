import { and, asc, eq, inArray } from 'drizzle-orm';
import { getDb, type DbOrTx } from '../db/client';
import * as t from '../db/schema';
import type { InvitedPolicy } from '../db/onboarding-schema';
import { PERMISSIONS, type Permission } from '../permissions';
import type { Principal } from '../auth/principal';
import { hasPermission } from '../auth/service';
import type { EffectivePermissions } from './schema';

/** The filter for one user's or bot's policy bindings in the organization. */
export const bindingsOfPrincipal = (organizationId: string, principal: Pick<Principal, 'type' | 'id'>) =>
  and(
    eq(t.policyBindings.organizationId, organizationId),
    eq(t.policyBindings.principalType, principal.type),
    eq(t.policyBindings.principalId, principal.id),
  );

/** Removes every policy binding of a user or bot in the organization (inside the caller's transaction). */
export async function removeBindingsOf(
  tx: DbOrTx,
  organizationId: string,
  principal: Pick<Principal, 'type' | 'id'>,
): Promise<void> {
  await tx.delete(t.policyBindings).where(bindingsOfPrincipal(organizationId, principal));
}

/** A user's or bot's policy bindings in the organization, oldest first, read in the caller's transaction. */
export function bindingsIn(
  tx: DbOrTx,
  organizationId: string,
  principal: Pick<Principal, 'type' | 'id'>,
): Promise<InvitedPolicy[]> {
  return tx
    .select({ policy: t.policyBindings.policy, projectId: t.policyBindings.projectId })
    .from(t.policyBindings)
    .where(bindingsOfPrincipal(organizationId, principal))
    .orderBy(asc(t.policyBindings.createdAt), asc(t.policyBindings.id));
}

/** The policy bindings of several users or bots of the organization, by principal id, oldest first. */
export async function bindingsByPrincipal(organizationId: string, type: 'user' | 'bot', ids: string[]) {
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

async function allowed(principal: Principal, organizationId: string, projectId: string | null): Promise<Permission[]> {
  const granted = await Promise.all(PERMISSIONS.map((p) => hasPermission(principal, p, { organizationId, projectId })));
  return PERMISSIONS.filter((_, i) => granted[i]);
}

/**
 * What the caller may do in the organization and in each of its projects, for the console to offer only
 * possible actions. The same evaluation every request's check uses, so the two can never disagree.
 */
export async function effectivePermissions(
  principal: Principal,
  organizationId: string,
): Promise<EffectivePermissions> {
  const db = await getDb();
  const projects = await db
    .select({ id: t.projects.id })
    .from(t.projects)
    .where(eq(t.projects.organizationId, organizationId))
    .orderBy(asc(t.projects.createdAt), asc(t.projects.id));
  const [organization, ...perProject] = await Promise.all([
    allowed(principal, organizationId, null),
    ...projects.map((p) => allowed(principal, organizationId, p.id)),
  ]);
  return {
    principal: { type: principal.type, id: principal.id, name: principal.name },
    organization,
    projects: projects.map((p, i) => ({ projectId: p.id, permissions: perProject[i] })),
  };
}
