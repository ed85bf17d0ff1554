import type { Principal } from '../auth/principal';
import { ApiError } from '../errors';
import { POLICIES, type Permission } from '../permissions';
import { permissionRefusal } from '../pipeline/key-refusals';
import { amGetSilenceOp } from './operations';
import type { AmOperation } from './route';

/** Why a client's command needs an operation whose permission it would not think of: said in that operation's 403. */
const WHY: ReadonlyMap<AmOperation, string> = new Map([
  [amGetSilenceOp, 'amtool reads a silence before it updates it'],
]);

export const whyOperationNeeds = (op: AmOperation): string | undefined => WHY.get(op);

/** The built-in roles that grant a permission, the narrowest first; OrganizationAdmin only when none else does. */
export function rolesGranting(permission: Permission): string[] {
  const roles = Object.entries(POLICIES)
    .filter(([name, permissions]) => name !== 'OrganizationAdmin' && permissions.includes(permission))
    .sort((a, b) => a[1].length - b[1].length)
    .map(([name]) => name);
  return roles.length > 0 ? roles : ['OrganizationAdmin'];
}

/** Who lacks the permission, in words: the credential's owner, by name. */
function ownerWords(principal: Pick<Principal, 'type' | 'name' | 'via'>): { who: string; them: string } {
  const whose = principal.via === 'oauth' ? "this OAuth token's user" : "this API key's owner";
  return principal.type === 'bot'
    ? { who: `the bot ${principal.name} (${whose})`, them: 'it' }
    : { who: `${principal.name} (${whose})`, them: 'them' };
}

/**
 * The words of a refusal for a missing permission, as amtool's users, curl and Grafana read them: what is missing,
 * why this command needs it when that is not obvious, and the fix. `keyMisses` is what the key's own restrictions
 * lack (lib/auth/key-scope.ts); null when its owner lacks the permission itself.
 */
export function refusalWords(
  principal: Pick<Principal, 'type' | 'name' | 'via'>,
  permission: Permission,
  keyMisses: string | null,
  why?: string,
): string {
  const because = why ? `; ${why}` : '';
  if (keyMisses)
    return `${keyMisses.replace(/\.$/, '')}${because}. Use a key whose restrictions include ${permission} in this project.`;
  const { who, them } = ownerWords(principal);
  const roles = rolesGranting(permission).join(' or ');
  return `Access denied: ${who} does not hold ${permission} in this project${because}. An administrator can give ${them} a role that grants it: ${roles}.`;
}

/** The 403 of this family for a permission the caller was refused: /v1's decision, in the family's own words. */
export async function alertmanagerRefusal(
  principal: Principal,
  permission: Permission,
  scope: { organizationId: string; projectId: string },
  why?: string,
): Promise<ApiError> {
  const refusal = await permissionRefusal(principal, permission, scope);
  const keyMisses = refusal.code === 'key_scope_insufficient' ? refusal.message : null;
  return new ApiError(refusal.code, refusalWords(principal, permission, keyMisses, why));
}
