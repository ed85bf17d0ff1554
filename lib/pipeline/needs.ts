import { keyIsNarrowed } from '../auth/key-scope';
import type { Principal } from '../auth/principal';
import { ApiError, notFound } from '../errors';
import type { Permission } from '../permissions';
import type { Needs, OwnerRule, SelfAccess } from './operation';

type Can = (permission: Permission) => Promise<boolean>;
type Refusal = (permission: Permission) => Promise<ApiError>;

export const SELF_REFUSAL =
  'This API key is restricted, and this operation acts on its owner’s own account: sign in, or use an unrestricted key.';

/**
 * The 403 of what an operation declares it needs, one rule for /v1 and the Alertmanager API: its permission, any
 * of its permissions, or, for the caller's own things (`self`), nothing, except from a key narrowed by permissions
 * or projects, which reaches only what its permissions name and so is refused there unless the door is one every
 * key keeps (its own revocation, what it is and may do) or the key names the permission that reaches everyone's.
 */
export async function checkNeeds(
  op: Needs,
  principal: Principal,
  params: Readonly<Record<string, unknown>>,
  can: Can,
  refusal: Refusal,
): Promise<void> {
  if (op.permission) {
    if (!(await can(op.permission))) throw await refusal(op.permission);
  } else if (op.anyPermission) {
    if (!(await anyOf(op.anyPermission, can))) throw await firstRefusal(op.anyPermission, refusal);
  } else if (op.self && principal.keyScope && keyIsNarrowed(principal.keyScope)) {
    if (!(await selfDoorOpen(op.self, principal, params, can)))
      throw new ApiError('key_scope_insufficient', SELF_REFUSAL);
  }
}

async function selfDoorOpen(
  self: SelfAccess,
  principal: Principal,
  params: Readonly<Record<string, unknown>>,
  can: Can,
) {
  const door = self.restrictedKeys;
  if (door === 'always') return true;
  if (door && params[door.ownKey] === principal.apiKeyId) return true;
  return self.orPermission !== undefined && (await can(self.orPermission));
}

async function anyOf(permissions: Permission[], can: Can): Promise<boolean> {
  for (const permission of permissions) if (await can(permission)) return true;
  return false;
}

/** Of several permissions refused, the key's side first: its message says what a better key would need. */
async function firstRefusal(permissions: Permission[], refusal: Refusal): Promise<ApiError> {
  const refusals = await Promise.all(permissions.map((p) => refusal(p)));
  return refusals.find((r) => r.code === 'key_scope_insufficient') ?? refusals[0];
}

/**
 * The 404 and then the 403 of an operation's owner rule: the resource must exist, and the caller needs what the rule
 * asks of a bot's, its own or someone else's.
 */
export async function checkOwnerRule<P, B>(
  rule: OwnerRule<P, B>,
  input: { params: P; body: B; principal: Principal },
  can: Can,
  refusal: Refusal,
): Promise<void> {
  const owner = await rule.find(input);
  if (!owner) throw notFound(rule.missingFor ? rule.missingFor(input.params) : rule.missing);
  const own = owner.type === input.principal.type && owner.id === input.principal.id;
  const needed = owner.type === 'bot' && rule.bot ? rule.bot : own ? rule.own : rule.other;
  if (needed === undefined) return;
  if (typeof needed === 'object') throw new ApiError('access_denied', needed.refused);
  if (!(await can(needed))) throw await refusal(needed);
}
