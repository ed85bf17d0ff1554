'use client';

import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { ApiRequestError } from '@/lib/api-client';

/**
 * The one way server issues reach a form: each issue whose path is one of `fields` (or starts with
 * `prefixes`, e.g. `matchers.0.value`) becomes that field's error, the first focused. Answers whether
 * anything was left over to report elsewhere (an issue at another path, or an error without issues).
 */
export function placeServerIssues<T extends FieldValues>(
  setError: UseFormSetError<T>,
  error: unknown,
  fields: readonly string[],
  prefixes: readonly string[] = [],
): boolean {
  if (!(error instanceof ApiRequestError) || error.issues.length === 0) return true;
  let leftOver = false;
  let first = true;
  for (const issue of error.issues) {
    const placed = fields.includes(issue.path) || prefixes.some((p) => issue.path.startsWith(`${p}.`));
    if (!placed) {
      leftOver = true;
      continue;
    }
    setError(issue.path as FieldPath<T>, { type: 'server', message: issue.message }, { shouldFocus: first });
    first = false;
  }
  return leftOver;
}

/**
 * A refusal without issues that is still about one field (409 `project_name_taken` is about Name): its message
 * becomes that field's error, focused. Answers whether it was placed, so the caller does not toast it too.
 */
export function placeCodeOnField<T extends FieldValues>(
  setError: UseFormSetError<T>,
  error: unknown,
  codes: Partial<Record<string, FieldPath<T>>>,
): boolean {
  const field = error instanceof ApiRequestError ? codes[error.code] : undefined;
  if (!field || !(error instanceof ApiRequestError)) return false;
  setError(field, { type: 'server', message: error.message }, { shouldFocus: true });
  return true;
}
