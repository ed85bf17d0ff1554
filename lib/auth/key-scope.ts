import { addressInRanges, parseClientAddress, parseIpRange, rangeWithin, type IpRange } from './ip-ranges';

const DAY_MS = 86_400_000;

/** What a key is narrowed to, as stored and shown: null is "unrestricted" on each axis. */
export type KeyRestrictions = {
  permissions: string[] | null;
  projectIds: string[] | null;
  allowedIps: string[] | null;
};

/** An organization's rules for its keys (PATCH /v1/organizations/{orgId} `keyPolicy`). */
export type KeyPolicy = {
  maxLifetimeDays: number | null;
  requireRestrictions: boolean;
  allowedIps: string[] | null;
};

export const KEY_POLICY_FIELDS = ['maxLifetimeDays', 'requireRestrictions', 'allowedIps'] as const;
export type KeyPolicyField = (typeof KEY_POLICY_FIELDS)[number];

/** A key's restrictions as the pipeline evaluates them, built once per cached lookup of the key. */
export type KeyScope = {
  permissions: ReadonlySet<string> | null;
  projectIds: ReadonlySet<string> | null;
  allowedIps: readonly IpRange[] | null;
  /** The policy fields the key breaks (made before the policy): every request with it is refused. */
  policyViolations: readonly KeyPolicyField[];
};

export const UNRESTRICTED: KeyRestrictions = { permissions: null, projectIds: null, allowedIps: null };

export function isRestricted(r: KeyRestrictions): boolean {
  return r.permissions !== null || r.projectIds !== null || r.allowedIps !== null;
}

const ranges = (texts: readonly string[]): IpRange[] => texts.map(parseIpRange).filter((r): r is IpRange => r !== null);

/** Which of the policy's rules the key breaks: its lifetime, its lack of restrictions, its address ranges. */
export function policyViolations(
  key: KeyRestrictions & { createdAt: Date; expiresAt: Date | null },
  policy: KeyPolicy | null,
): KeyPolicyField[] {
  if (!policy) return [];
  const out: KeyPolicyField[] = [];
  const lifetime = key.expiresAt ? key.expiresAt.getTime() - key.createdAt.getTime() : Infinity;
  // A second's slack: a lifetime of exactly N days is computed from two instants a few ms apart.
  if (policy.maxLifetimeDays !== null && lifetime > policy.maxLifetimeDays * DAY_MS + 1000) out.push('maxLifetimeDays');
  if (policy.requireRestrictions && !isRestricted(key)) out.push('requireRestrictions');
  if (policy.allowedIps !== null) {
    const outer = ranges(policy.allowedIps);
    if (key.allowedIps === null || !ranges(key.allowedIps).every((r) => rangeWithin(r, outer))) out.push('allowedIps');
  }
  return out;
}

export function keyScopeOf(
  key: KeyRestrictions & { createdAt: Date; expiresAt: Date | null },
  policy: KeyPolicy | null,
): KeyScope {
  return {
    permissions: key.permissions && new Set(key.permissions),
    projectIds: key.projectIds && new Set(key.projectIds),
    allowedIps: key.allowedIps && ranges(key.allowedIps),
    policyViolations: policyViolations(key, policy),
  };
}

/**
 * Whether the key reaches only what it names: restricted by permissions or projects. A key restricted by addresses
 * alone acts fully as its owner from those addresses, the owner's own doors included.
 */
export function keyIsNarrowed(scope: KeyScope): boolean {
  return scope.permissions !== null || scope.projectIds !== null;
}

/** Whether a request from this client address may use the key (no `allowedIps`: from anywhere). */
export function keyAllowsAddress(scope: KeyScope, address: string): boolean {
  return scope.allowedIps === null || addressInRanges(parseClientAddress(address), scope.allowedIps);
}

/**
 * What the key's restrictions lack for `permission` at the scope (a project, or the organization itself when
 * null), in words for the 403's message; null when they allow it. A project restriction narrows the key as a
 * project binding narrows a member: it never reaches organization-level actions.
 */
export function keyScopeMisses(scope: KeyScope, permission: string, projectId: string | null): string | null {
  if (scope.permissions && !scope.permissions.has(permission))
    return `This API key is restricted to permissions that do not include ${permission}.`;
  if (scope.projectIds && projectId === null)
    return `This API key is restricted to projects, so it cannot use ${permission} at organization level.`;
  if (scope.projectIds && projectId !== null && !scope.projectIds.has(projectId))
    return `This API key is restricted to projects that do not include ${projectId}.`;
  return null;
}
