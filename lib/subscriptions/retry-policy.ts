import type { Issue } from '../errors';
import { backoffIssue, type RetryPolicy, type RetryPolicyPatch } from './schema';

/** The policy's columns on `subscriptions`. */
export type RetryColumns = { retryMaxAttempts: number; retryMinBackoffSeconds: number; retryMaxBackoffSeconds: number };

export const retryPolicyOf = (row: RetryColumns): RetryPolicy => ({
  maxAttempts: row.retryMaxAttempts,
  minBackoffSeconds: row.retryMinBackoffSeconds,
  maxBackoffSeconds: row.retryMaxBackoffSeconds,
});

export const retryColumns = (policy: RetryPolicy): RetryColumns => ({
  retryMaxAttempts: policy.maxAttempts,
  retryMinBackoffSeconds: policy.minBackoffSeconds,
  retryMaxBackoffSeconds: policy.maxBackoffSeconds,
});

export type RetryPolicyMerge = { ok: true; policy: RetryPolicy; changed: boolean } | { ok: false; issues: Issue[] };

/** Applies the fields sent over the current policy (the defaults on create); the merged policy must keep min ≤ max. */
export function mergeRetryPolicy(current: RetryPolicy, patch: RetryPolicyPatch): RetryPolicyMerge {
  const given = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
  const policy = { ...current, ...given } as RetryPolicy;
  const issue = backoffIssue(policy, patch);
  if (issue) return { ok: false, issues: [issue] };
  const changed = Object.entries(given).some(([key, value]) => current[key as keyof RetryPolicy] !== value);
  return { ok: true, policy: changed ? policy : current, changed };
}
