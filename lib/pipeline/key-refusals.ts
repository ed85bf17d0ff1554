import { keyAllowsAddress, keyScopeMisses } from '../auth/key-scope';
import type { Permission } from '../permissions';
import type { Principal } from '../auth/principal';
import { ownerHasPermission } from '../auth/service';
import { ApiError } from '../errors';
import { clientAddress } from '../http/public-origin';

/**
 * Right after authentication, before anything else is read: a key used from outside its `allowedIps` (403
 * `ip_not_allowed`), then a key that breaks its organization's key policy (403 `key_policy_violation`). Both
 * come from the cached lookup of the key, so neither costs a query.
 */
export function admitKeyRequest(principal: Principal, headers: Headers): void {
  const scope = principal.keyScope;
  if (!scope) return;
  if (!keyAllowsAddress(scope, clientAddress(headers)))
    throw new ApiError('ip_not_allowed', `This API key is not allowed from ${clientAddress(headers)}.`);
  if (scope.policyViolations.length > 0)
    throw new ApiError(
      'key_policy_violation',
      `This API key breaks the organization's key policy (${scope.policyViolations.join(', ')}); it is kept, and works again if the policy allows it.`,
    );
}

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
