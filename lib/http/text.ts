import type { Issue } from './errors';
import { dottedPath } from './issues';

// A NUL, or a UTF-16 surrogate without its partner: PostgreSQL refuses the first, and the second has no UTF-8 form.
const BAD_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a string cannot be stored as text, or null when it can. */
export function textProblem(text: string): string | null {
  if (!BAD_TEXT.test(text)) return null;
  return text.includes('\u0000')
    ? 'The text contains a NUL character (U+0000), which is not allowed.'
    : 'The text contains a lone UTF-16 surrogate, which is not a Unicode character.';
}

/**
 * Every problem of parsed input that no schema should have to repeat: text that is not storable Unicode
 * (in any string value or key, at any depth) and a `__proto__` key (JSON.parse makes it an own property,
 * and spreading it would set a prototype). Route wrappers run this on every body, query and header.
 */
export function inputIssues(value: unknown, path: readonly PropertyKey[] = []): Issue[] {
  if (typeof value === 'string') {
    const problem = textProblem(value);
    return problem ? [{ path: dottedPath(path), message: problem }] : [];
  }
  if (typeof value !== 'object' || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((item, index) => inputIssues(item, [...path, index]));
  const issues: Issue[] = [];
  for (const [key, item] of Object.entries(value)) {
    const at = [...path, key];
    if (key === '__proto__') issues.push({ path: dottedPath(at), message: 'Unknown field "__proto__".' });
    else if (textProblem(key)) issues.push({ path: dottedPath(at), message: `Unknown field: ${textProblem(key)}` });
    else issues.push(...inputIssues(item, at));
  }
  return issues;
}
