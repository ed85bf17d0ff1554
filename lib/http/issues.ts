import type { z } from 'zod';
import type { Issue } from '../errors';

/** Dotted path of a zod issue: `matchers.1.value`, `target.timeoutSeconds`, or "" for the body itself. */
export function dottedPath(path: readonly PropertyKey[]): string {
  return path.map(String).join('.');
}

/**
 * One issue per path, the first one found: zod can report one bad value twice (`1e308` is neither an
 * integer nor at most 10), and a client fixing a field needs one sentence about it, not two.
 */
export function uniqueIssues(issues: Issue[]): Issue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => !seen.has(issue.path) && seen.add(issue.path));
}

/** One issue per problem, each at its dotted path; unknown keys get one issue each, at their own path. */
export function zodIssues(error: z.ZodError, prefix: readonly PropertyKey[] = []): Issue[] {
  const out: Issue[] = [];
  for (const issue of error.issues) {
    const base = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out.push({ path: dottedPath([...base, key]), message: `Unknown field "${key}".` });
    } else {
      out.push({ path: dottedPath(base), message: issue.message });
    }
  }
  return uniqueIssues(out);
}
