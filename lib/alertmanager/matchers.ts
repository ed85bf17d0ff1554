import type { Matcher, MatcherOp } from '../silences/matchers';
import type { AmMatcher } from './model';

/** The /v1 operator of an Alertmanager matcher: `isRegex` and `isEqual` are its two bits. */
export function opOf(m: Pick<AmMatcher, 'isRegex' | 'isEqual'>): MatcherOp {
  if (m.isRegex) return m.isEqual ? '=~' : '!~';
  return m.isEqual ? '=' : '!=';
}

export const toMatcher = (m: AmMatcher): Matcher => ({ label: m.name, op: opOf(m), value: m.value });

export const toAmMatcher = (m: Matcher): AmMatcher => ({
  name: m.label,
  value: m.value,
  isRegex: m.op === '=~' || m.op === '!~',
  isEqual: m.op === '=' || m.op === '=~',
});

// Alertmanager's matcher syntax: `name op value`, the value bare or double-quoted with Go's escapes.
const FILTER = /^\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(=~|!~|!=|=)\s*([\s\S]*?)\s*$/;

/** One `filter` query parameter as a matcher, or null when it is not one (Alertmanager answers 400). */
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

/** Alertmanager's filter: every filter matcher must equal one of the silence's matchers (name, operator, value). */
export function passesFilters(silence: { matchers: Matcher[] }, filters: Matcher[]): boolean {
  return filters.every((f) =>
    silence.matchers.some((m) => m.label === f.label && m.op === f.op && m.value === f.value),
  );
}
