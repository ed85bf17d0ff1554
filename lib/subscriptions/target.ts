import type { SubscriptionTarget } from '../db/schema';
import type { Issue } from '../errors';
import { zodIssues } from '../http/issues';
import { httpsTarget, workflowTarget, type SubscriptionTargetPatch } from './schema';

export type TargetMerge = { ok: true; target: SubscriptionTarget; changed: boolean } | { ok: false; issues: Issue[] };

const complete = { https: httpsTarget, workflow: workflowTarget } as const;

/**
 * Applies a PATCH's target to the current one, field by field within its kind. The kind is fixed at
 * creation, so a different kind (or any kind on a target this version does not know) is refused at
 * `target.kind`; the merged target must then be complete for its kind.
 */
export function mergeTarget(current: SubscriptionTarget, patch: SubscriptionTargetPatch): TargetMerge {
  if (patch.kind !== current.kind) {
    return {
      ok: false,
      issues: [{ path: 'target.kind', message: `The target kind is "${current.kind}" and cannot be changed.` }],
    };
  }
  const given = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
  const merged = { ...current, ...given } as SubscriptionTarget;
  const check = complete[patch.kind].safeParse(merged);
  if (!check.success) return { ok: false, issues: zodIssues(check.error, ['target']) };
  const changed = Object.keys(given).some((key) => (current as Record<string, unknown>)[key] !== given[key]);
  return { ok: true, target: changed ? merged : current, changed };
}

// The console's reading of a target lives apart, so the subscription list does not bring zod to the browser.
export { knownTarget, type KnownTarget } from './known-target';
