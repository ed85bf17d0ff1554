import type { Matcher, MatcherOp } from './matchers';

// Alertmanager's matcher syntax: `name op value`, the value bare or double-quoted with Go's escapes.
const FILTER = /^\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(=~|!~|!=|=)\s*([\s\S]*?)\s*$/;

/** One `filter` (Alertmanager's matcher syntax, as a query parameter) as a matcher, or null when it is not one. */
export function parseFilter(text: string): Matcher | null {
  const m = FILTER.exec(text.trim().replace(/^\{([\s\S]*)\}$/, '$1'));
  if (!m) return null;
  const [, label, op, raw] = m;
  if (!raw.startsWith('"')) return raw.includes('"') ? null : { label, op: op as MatcherOp, value: raw };
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'string' ? { label, op: op as MatcherOp, value } : null;
  } catch {
    return null;
  }
}
