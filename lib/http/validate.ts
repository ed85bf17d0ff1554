import type { z } from 'zod';
import type { Issue } from '../errors';
import { uniqueIssues, zodIssues } from './issues';
import { decodeForm } from './form';
import { inputIssues } from './text';

export type Validated<T> = { success: true; data: T; issues: Issue[] } | { success: false; issues: Issue[] };

/**
 * The one way request input is checked: the rules every field shares (storable text, no `__proto__`)
 * first, then the operation's schema, one issue per path. Kept out of each schema so a new field or
 * route cannot forget them.
 */
export function validateInput<S extends z.ZodType>(schema: S, value: unknown): Validated<z.output<S>> {
  const shared = inputIssues(value);
  const parsed = schema.safeParse(value);
  if (shared.length === 0 && parsed.success) return { success: true, data: parsed.data, issues: [] };
  return { success: false, issues: uniqueIssues([...shared, ...(parsed.success ? [] : zodIssues(parsed.error))]) };
}

/** Whether a query field takes every occurrence of its parameter: an array schema, however wrapped. */
function repeatable(field: unknown): boolean {
  let schema = field as { type?: string; unwrap?: () => unknown } | undefined;
  while (schema && schema.type !== 'array' && typeof schema.unwrap === 'function')
    schema = schema.unwrap() as typeof schema;
  return schema?.type === 'array';
}

/** A query string against its schema: strict decoding (lib/http/form.ts), the first value of each name. */
export function validateQuery<S extends z.ZodType>(schema: S, search: string): Validated<z.output<S>> {
  const { params, issues } = decodeForm(search);
  // The first value of each name, or all of them for array fields (`action=a&action=b`); fromEntries makes
  // `__proto__` an own key, as JSON.parse does.
  const shape: Record<string, unknown> = 'shape' in schema ? (schema as unknown as z.ZodObject).shape : {};
  const values: Record<string, string | string[]> = Object.fromEntries([...params].reverse());
  for (const name of Object.keys(values)) if (repeatable(shape[name])) values[name] = params.getAll(name);
  const result = validateInput(schema, values);
  if (issues.length === 0) return result;
  return { success: false, issues: uniqueIssues([...issues, ...result.issues]) };
}
