import { canonicalIpRange } from './ip-ranges';
import { isRestricted, policyViolations, type KeyPolicy, type KeyRestrictions } from './key-scope';

const DAY_MS = 86_400_000;

/** Ranges in canonical form, each once, in the order given. */
export function canonicalRanges(texts: readonly string[] | null | undefined): string[] | null {
  if (!texts) return null;
  return [...new Set(texts.map((text) => canonicalIpRange(text) ?? text))];
}

/** A policy as stored: ranges canonical. */
export function canonicalKeyPolicy(policy: KeyPolicy | null): KeyPolicy | null {
  return policy && { ...policy, allowedIps: canonicalRanges(policy.allowedIps) };
}

export type PolicyIssue = { path: string; message: string };

/**
 * Where a key about to be created, rolled or changed would break the organization's policy, as 400 issues:
 * the lifetime at `expiresInDays`, missing restrictions at `permissions`, ranges at `allowedIps` (or the entry).
 */
export function keyPolicyIssues(
  key: KeyRestrictions & { lifetimeDays: number | null },
  policy: KeyPolicy | null,
): PolicyIssue[] {
  if (!policy) return [];
  const now = new Date(0);
  const expiresAt = key.lifetimeDays === null ? null : new Date(key.lifetimeDays * DAY_MS);
  const broken = policyViolations({ ...key, createdAt: now, expiresAt }, policy);
  const issues: PolicyIssue[] = [];
  if (broken.includes('maxLifetimeDays'))
    issues.push({
      path: 'expiresInDays',
      message: `The organization's key policy allows keys of at most ${policy.maxLifetimeDays} days.`,
    });
  if (broken.includes('requireRestrictions') && !isRestricted(key))
    issues.push({
      path: 'permissions',
      message: "The organization's key policy requires restricted keys: give permissions, projectIds or allowedIps.",
    });
  if (broken.includes('allowedIps')) {
    const allowed = canonicalKeyPolicy(policy)?.allowedIps ?? [];
    const outside = (key.allowedIps ?? []).findIndex(
      (range) =>
        policyViolations({ ...UNLIMITED, allowedIps: [range] }, { ...NO_RULES, allowedIps: allowed }).length > 0,
    );
    issues.push({
      path: key.allowedIps === null || outside < 0 ? 'allowedIps' : `allowedIps.${outside}`,
      message: `The organization's key policy allows keys used only from within ${allowed.join(', ')}.`,
    });
  }
  return issues;
}

const UNLIMITED = { permissions: null, projectIds: null, createdAt: new Date(0), expiresAt: null };
const NO_RULES: KeyPolicy = { maxLifetimeDays: null, requireRestrictions: false, allowedIps: null };
