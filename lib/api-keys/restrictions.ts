import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import * as t from '../db/schema';
import { canonicalRanges, keyPolicyIssues } from '../auth/key-policy';
import { policyViolations, type KeyPolicy, type KeyRestrictions } from '../auth/key-scope';
import type { Principal } from '../auth/principal';
import { bindingsWithPermissions } from '../auth/service';
import { invalidRequest, type Issue } from '../errors';
import type { AuditChange } from '../db/audit-types';

const unique = <T>(items: readonly T[] | null | undefined): T[] | null => (items ? [...new Set(items)] : null);

/** The organization's key policy; `lock`: read-locked, so a policy change waits for this key's transaction. */
export async function keyPolicyFor(tx: DbOrTx, organizationId: string, lock = true): Promise<KeyPolicy | null> {
  const query = tx
    .select({ keyPolicy: t.organizations.keyPolicy })
    .from(t.organizations)
    .where(eq(t.organizations.id, organizationId));
  const [org] = lock ? await query.for('share') : await query;
  return org?.keyPolicy ?? null;
}

/**
 * The restrictions as stored (each entry once, ranges canonical), or 400 with an issue at each item that
 * fails: a project of another organization; a permission the creator does not hold at the key's scope (in the
 * organization, or in every project the key is restricted to); and what the organization's key policy forbids.
 */
export async function checkedRestrictions(
  tx: DbOrTx,
  organizationId: string,
  creator: Principal,
  input: Partial<KeyRestrictions>,
  lifetimeDays: number | null,
  policy: KeyPolicy | null,
): Promise<KeyRestrictions> {
  const restrictions: KeyRestrictions = {
    permissions: unique(input.permissions),
    projectIds: unique(input.projectIds),
    allowedIps: canonicalRanges(input.allowedIps),
  };
  const issues: Issue[] = [];
  const ids = restrictions.projectIds ?? [];
  const known = new Set(
    ids.length === 0
      ? []
      : (
          await tx
            .select({ id: t.projects.id })
            .from(t.projects)
            .where(and(eq(t.projects.organizationId, organizationId), inArray(t.projects.id, ids)))
        ).map((p) => p.id),
  );
  (input.projectIds ?? []).forEach((id, i) => {
    if (!known.has(id)) issues.push({ path: `projectIds.${i}`, message: 'No such project in this organization.' });
  });
  const held = await heldIn(tx, organizationId, creator);
  const scopes = restrictions.projectIds ?? [null];
  for (const [i, permission] of (input.permissions ?? []).entries()) {
    if (!scopes.every((projectId) => held(permission, projectId)))
      issues.push({
        path: `permissions.${i}`,
        message: restrictions.projectIds
          ? `You do not hold ${permission} in every project of this key, so you cannot give it.`
          : `You do not hold ${permission} in the whole organization, so you cannot give it without projectIds.`,
      });
  }
  issues.push(...keyPolicyIssues({ ...restrictions, lifetimeDays }, policy));
  if (issues.length > 0) throw invalidRequest(issues);
  return restrictions;
}

/**
 * The creator's permissions, read in the key's transaction (the embedded database has one connection, which the
 * transaction holds), evaluated as `hasPermission` does: an organization binding reaches every project.
 */
async function heldIn(tx: DbOrTx, organizationId: string, creator: Principal) {
  const grants = await bindingsWithPermissions(tx, creator, organizationId);
  return (permission: string, projectId: string | null) =>
    grants.some((g) => g.permissions.includes(permission) && (g.projectId === null || g.projectId === projectId));
}

/** A key's restrictions as an audit event's changes: each restricted axis on creation, each changed one after. */
export function restrictionChanges(before: KeyRestrictions | null, after: KeyRestrictions): AuditChange[] {
  const fields = ['permissions', 'projectIds', 'allowedIps'] as const;
  return fields
    .filter((f) => (before ? JSON.stringify(before[f]) !== JSON.stringify(after[f]) : after[f] !== null))
    .map((f) => ({ field: f, from: before ? before[f] : null, to: after[f] }));
}

/** What an ApiKey shows of its restrictions, and which of the policy's rules it breaks. */
export function restrictionView(
  row: KeyRestrictions & { createdAt: Date; expiresAt: Date | null },
  policy: KeyPolicy | null,
) {
  return {
    permissions: row.permissions ?? null,
    projectIds: row.projectIds ?? null,
    allowedIps: row.allowedIps ?? null,
    policyViolations: policyViolations(row, policy),
  };
}
