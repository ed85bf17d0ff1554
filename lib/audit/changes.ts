import { canonicalJson } from './canonical';
import type { AuditChange } from '../db/audit-types';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The `changes` of an update: every field whose value differs, nested objects as dotted paths
 * (`target.url`), arrays and scalars compared whole (`matchers`). An absent field reads as null.
 */
export function changesBetween(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  prefix = '',
): AuditChange[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return keys.flatMap((key) => {
    const from = before[key] ?? null;
    const to = after[key] ?? null;
    const field = prefix + key;
    if (isPlainObject(from) && isPlainObject(to)) return changesBetween(from, to, `${field}.`);
    return canonicalJson(from) === canonicalJson(to) ? [] : [{ field, from, to }];
  });
}
