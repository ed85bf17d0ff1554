import { keyScopeMisses } from '../auth/key-scope';
import type { Permission } from '../permissions';
import type { Principal } from '../auth/principal';
import { ownerHasPermission } from '../auth/service';
import { ApiError } from '../errors';

/**
 * The 403 for a permission the caller was refused: `key_scope_insufficient` (naming what the key lacks) when the
 * owner holds it and only the key's restrictions take it away, else `access_denied`.
 */
export async function permissionRefusal(
  principal: Principal,
  permission: Permission,
  scope: { organizationId: string; projectId: string | null },
  deniedMessage?: string,
): Promise<ApiError> {
  const missing = principal.keyScope && keyScopeMisses(principal.keyScope, permission, scope.projectId);
  if (missing && (await ownerHasPermission(principal, permission, scope)))
    return new ApiError('key_scope_insufficient', missing);
  return new ApiError('access_denied', deniedMessage);
}
