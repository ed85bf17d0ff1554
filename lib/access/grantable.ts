import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import * as t from '../db/schema';
import type { InvitedPolicy } from '../db/onboarding-schema';
import { invalidRequest, type Issue } from '../errors';
import { POLICIES } from '../permissions';
import type { Principal } from '../auth/principal';
import { keyScopeMisses } from '../auth/key-scope';
import { bindingsWithPermissions } from '../auth/service';
import { bindingsOfPrincipal } from './service';

const bindingKey = (b: InvitedPolicy) => `${b.policy}:${b.projectId ?? ''}`;

/**
 * The bindings a caller may give (a member's, a bot's or an invitation's), each once, or 400 with an issue at each
 * item that fails: an unknown policy, a project of another organization, or a policy with a permission the caller
 * does not hold at that scope (a key's restrictions only take away), unless the principal already has that binding
 * (`kept`). Read in the caller's transaction.
 */
export async function grantablePolicies(
  tx: DbOrTx,
  organizationId: string,
  granter: Principal,
  requested: InvitedPolicy[],
  kept: InvitedPolicy[] = [],
  path = 'policies',
): Promise<InvitedPolicy[]> {
  // Only what is given is checked: a binding the principal already has is not granted again by keeping it.
  const held = new Set(kept.map(bindingKey));
  const projectIds = [...new Set(requested.flatMap((b) => (b.projectId ? [b.projectId] : [])))];
  const known = new Set(
    projectIds.length === 0
      ? []
      : (
          await tx
            .select({ id: t.projects.id })
            .from(t.projects)
            .where(and(eq(t.projects.organizationId, organizationId), inArray(t.projects.id, projectIds)))
        ).map((p) => p.id),
  );
  const grants = await bindingsWithPermissions(tx, granter, organizationId);
  const holds = (permission: string, projectId: string | null) =>
    grants.some((g) => g.permissions.includes(permission) && (g.projectId === null || g.projectId === projectId)) &&
    (!granter.keyScope || keyScopeMisses(granter.keyScope, permission, projectId) === null);
  const issues: Issue[] = [];
  const out = new Map<string, InvitedPolicy>();
  requested.forEach((binding, i) => {
    const permissions = Object.hasOwn(POLICIES, binding.policy) ? POLICIES[binding.policy] : undefined;
    if (!permissions) {
      issues.push({ path: `${path}.${i}.policy`, message: `No policy is called ${binding.policy}.` });
    } else if (binding.projectId && !known.has(binding.projectId)) {
      issues.push({ path: `${path}.${i}.projectId`, message: 'No such project in this organization.' });
    } else {
      const lacking = held.has(bindingKey(binding)) ? [] : permissions.filter((p) => !holds(p, binding.projectId));
      if (lacking.length > 0)
        issues.push({
          path: `${path}.${i}.policy`,
          message: `You do not hold ${lacking.slice(0, 3).join(', ')}${lacking.length > 3 ? ', …' : ''} ${
            binding.projectId ? 'in that project' : 'in the whole organization'
          }, so you cannot give ${binding.policy}.`,
        });
    }
    out.set(bindingKey(binding), { policy: binding.policy, projectId: binding.projectId });
  });
  if (issues.length > 0) throw invalidRequest(issues);
  return [...out.values()];
}

/**
 * Replaces every binding of a user or bot in the organization by `bindings` (inside the caller's transaction): the ones
 * kept stay as they are, the others go, and the new ones are written a millisecond apart in the order given, so lists
 * (oldest first) show them in that order.
 */
export async function writeBindings(
  tx: DbOrTx,
  organizationId: string,
  principal: { type: 'user' | 'bot'; id: string },
  bindings: InvitedPolicy[],
): Promise<void> {
  const current = await tx
    .select({ id: t.policyBindings.id, policy: t.policyBindings.policy, projectId: t.policyBindings.projectId })
    .from(t.policyBindings)
    .where(bindingsOfPrincipal(organizationId, principal));
  const wanted = new Set(bindings.map(bindingKey));
  const gone = current.filter((b) => !wanted.has(bindingKey(b))).map((b) => b.id);
  if (gone.length > 0) await tx.delete(t.policyBindings).where(inArray(t.policyBindings.id, gone));
  const have = new Set(current.map(bindingKey));
  const now = Date.now();
  const added = bindings.filter((b) => !have.has(bindingKey(b)));
  if (added.length === 0) return;
  await tx.insert(t.policyBindings).values(
    added.map((b, i) => ({
      organizationId,
      principalType: principal.type,
      principalId: principal.id,
      policy: b.policy,
      projectId: b.projectId,
      createdAt: new Date(now + i),
    })),
  );
}
