// Shared by the console's hooks (lib/access/queries.ts) and the server's first render, which reads the permissions
// to choose its own reads (app/(console)/orgs/[orgId]/page.tsx) and cannot import values from a 'use client' module.
import type { Permission } from '../permissions';
import type { EffectivePermissions } from './schema';

/** Whether the caller has a permission at organization scope, or in the given project. Undefined while loading. */
export function hasGrant(
  data: EffectivePermissions | undefined,
  permission: Permission,
  projectId?: string,
): boolean | undefined {
  if (!data) return undefined;
  if (!projectId) return data.organization.includes(permission);
  return data.projects.find((p) => p.projectId === projectId)?.permissions.includes(permission) ?? false;
}
