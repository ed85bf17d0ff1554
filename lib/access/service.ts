import { and, eq } from 'drizzle-orm';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { PERMISSIONS, type Permission } from '../auth/policies';
import type { Principal } from '../auth/principal';
import type { EffectivePermissions } from './schema';

const known = new Set<string>(PERMISSIONS);
const ordered = (set: Set<Permission>) => PERMISSIONS.filter((p) => set.has(p));

/** What the caller may do in the organization, from its bindings now: for the console to show only possible actions. */
export async function effectivePermissions(principal: Principal, organizationId: string): Promise<EffectivePermissions> {
  const db = await getDb();
  const [bindings, projects] = await Promise.all([
    db
      .select({ projectId: t.policyBindings.projectId, permissions: t.policies.permissions })
      .from(t.policyBindings)
      .innerJoin(t.policies, eq(t.policies.name, t.policyBindings.policy))
      .where(
        and(
          eq(t.policyBindings.organizationId, organizationId),
          eq(t.policyBindings.principalType, principal.type),
          eq(t.policyBindings.principalId, principal.id),
        ),
      ),
    db.select({ id: t.projects.id }).from(t.projects).where(eq(t.projects.organizationId, organizationId)),
  ]);
  const org = new Set<Permission>();
  const byProject = new Map<string, Set<Permission>>(projects.map((p) => [p.id, new Set<Permission>()]));
  for (const binding of bindings) {
    const target = binding.projectId === null ? org : byProject.get(binding.projectId);
    for (const permission of binding.permissions) if (known.has(permission)) target?.add(permission as Permission);
  }
  return {
    principal: { type: principal.type, id: principal.id, name: principal.name },
    organization: ordered(org),
    projects: [...byProject].map(([projectId, own]) => ({ projectId, permissions: ordered(new Set([...org, ...own])) })),
  };
}
