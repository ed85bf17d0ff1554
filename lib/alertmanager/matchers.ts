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

export { parseFilter } from '../silences/filter';

/** Alertmanager's filter: every filter matcher must equal one of the silence's matchers (name, operator, value). */
export function passesFilters(silence: { matchers: Matcher[] }, filters: Matcher[]): boolean {
  return filters.every((f) =>
    silence.matchers.some((m) => m.label === f.label && m.op === f.op && m.value === f.value),
  );
}
