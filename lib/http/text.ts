import type { Issue } from '../errors';
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

/** Where a value sits: a linked list from the leaf up, so a step costs the same at any depth. */
type At = { key: PropertyKey; parent: At } | null;
/** One step of the walk: a value to look into, or an issue already found, kept in document order. */
type Step = { value: unknown; at: At } | { issue: Issue };

function pathOf(at: At, prefix: readonly PropertyKey[]): string {
  const keys: PropertyKey[] = [];
  for (let node = at; node; node = node.parent) keys.push(node.key);
  return dottedPath([...prefix, ...keys.reverse()]);
}

/**
 * Every problem of parsed input that no schema should have to repeat: text that is not storable Unicode
 * (in any string value or key, at any depth) and a `__proto__` key (JSON.parse makes it an own property,
 * and spreading it would set a prototype). Route wrappers run this on every body, query and header.
 * An explicit stack, not recursion: a body nested deeper than the stack must be refused, not crash the walk.
 */
export function inputIssues(value: unknown, path: readonly PropertyKey[] = []): Issue[] {
  const issues: Issue[] = [];
  const stack: Step[] = [{ value, at: null }];
  for (let step = stack.pop(); step; step = stack.pop()) {
    if ('issue' in step) {
      issues.push(step.issue);
      continue;
    }
    const { value: item, at } = step;
    if (typeof item === 'string') {
      const problem = textProblem(item);
      if (problem) issues.push({ path: pathOf(at, path), message: problem });
      continue;
    }
    if (typeof item !== 'object' || item === null) continue;
    const children: Step[] = Object.entries(item).map(([key, child]): Step => {
      const childAt = { key: Array.isArray(item) ? Number(key) : key, parent: at };
      if (Array.isArray(item)) return { value: child, at: childAt };
      if (key === '__proto__') return { issue: { path: pathOf(childAt, path), message: 'Unknown field "__proto__".' } };
      const problem = textProblem(key);
      if (problem) return { issue: { path: pathOf(childAt, path), message: `Unknown field: ${problem}` } };
      return { value: child, at: childAt };
    });
    // A loop, not push(...children): a 1 MiB array has more elements than a call takes arguments.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return issues;
}
