import type { Alert } from '@/lib/alerts/schema';
import { parseFilter } from '@/lib/silences/filter';
import { compileMatcherValue, type Matcher } from '@/lib/silences/matchers';

// What the Alerts page decides without React: its groups, the silence "Silence…" starts, and its filter's checks.

/** Alerts without an `alertname` label gather under this heading. */
const NO_NAME = '(no alertname)';

/** The loaded alerts by `alertname`, groups in name order so a refresh never reorders them; newest first within. */
export function groupByName(alerts: readonly Alert[]): [string, Alert[]][] {
  const groups = new Map<string, Alert[]>();
  for (const a of alerts) {
    const name = a.labels.alertname ?? NO_NAME;
    groups.set(name, [...(groups.get(name) ?? []), a]);
  }
  return [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Why a typed filter would be refused by the API (the same parser and RE2 as its `filter=`), or null. */
export function filterProblem(text: string): string | null {
  const matcher = parseFilter(text);
  if (!matcher) return 'Write a matcher such as severity="critical": a label, one of = != =~ !~, then a value.';
  if (matcher.op === '=~' || matcher.op === '!~') {
    const compiled = compileMatcherValue(matcher.value);
    if (!compiled.ok) return `Not a valid RE2 expression: ${compiled.message}`;
  }
  return null;
}

/** A matcher written back in the syntax the filter takes, its value quoted. */
export const matcherText = (m: Matcher) => `${m.label}${m.op}${JSON.stringify(m.value)}`;

/** The new silence "Silence…" opens: the alert's labels as `=` matchers (each removable in the editor), alertname first. */
export function silenceFrom(alert: Alert): { kind: 'new'; from: { comment: string; matchers: Matcher[] } } {
  const order = ([a]: [string, string], [b]: [string, string]) =>
    a === 'alertname' ? -1 : b === 'alertname' ? 1 : a < b ? -1 : a > b ? 1 : 0;
  const matchers = Object.entries(alert.labels)
    .sort(order)
    .map(([label, value]) => ({ label, op: '=' as const, value }));
  return { kind: 'new', from: { comment: '', matchers } };
}
