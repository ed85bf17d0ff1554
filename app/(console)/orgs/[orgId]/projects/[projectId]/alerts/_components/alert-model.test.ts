import { describe, expect, it } from 'vitest';
import type { Alert } from '@/lib/alerts/schema';
import { filterProblem, groupByName, matcherText, silenceFrom } from './alert-model';

const alert = (fingerprint: string, labels: Record<string, string>): Alert => ({
  fingerprint,
  labels,
  annotations: {},
  startsAt: '2026-11-27T17:00:00.000Z',
  endsAt: '2026-11-27T18:00:00.000Z',
  updatedAt: '2026-11-27T17:00:00.000Z',
  generatorURL: '',
  state: 'firing',
  silencedBy: [],
});

describe('the Alerts page without React', () => {
  it('groups by alertname in name order, keeping the list order within a group', () => {
    const groups = groupByName([
      alert('1', { alertname: 'Zeta' }),
      alert('2', { alertname: 'Alpha' }),
      alert('3', { job: 'x' }),
      alert('4', { alertname: 'Zeta' }),
    ]);
    expect(groups.map(([name, items]) => [name, items.map((a) => a.fingerprint)])).toEqual([
      ['(no alertname)', ['3']],
      ['Alpha', ['2']],
      ['Zeta', ['1', '4']],
    ]);
  });

  it('starts a silence with every label as an = matcher, alertname first', () => {
    const target = silenceFrom(alert('1', { zone: 'b', alertname: 'DiskFull', instance: 'db-1' }));
    expect(target.from.matchers).toEqual([
      { label: 'alertname', op: '=', value: 'DiskFull' },
      { label: 'instance', op: '=', value: 'db-1' },
      { label: 'zone', op: '=', value: 'b' },
    ]);
  });

  it('checks a filter as the API does and writes it back quoted', () => {
    expect(filterProblem('severity="critical"')).toBeNull();
    expect(filterProblem('job=~api|web')).toBeNull();
    expect(filterProblem('job=~"("')).toMatch(/^Not a valid RE2 expression/);
    expect(filterProblem('just words')).toMatch(/^Write a matcher/);
    expect(matcherText({ label: 'job', op: '=~', value: 'a"b' })).toBe('job=~"a\\"b"');
  });
});
