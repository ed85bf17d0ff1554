import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MATCHER_OPS } from '../silences/matchers';
import { opOf, parseFilter, passesFilters, toAmMatcher, toMatcher } from './matchers';

describe('Alertmanager matchers', () => {
  it('maps each /v1 operator to isRegex and isEqual and back', () => {
    expect(MATCHER_OPS.map((op) => toAmMatcher({ label: 'a', op, value: 'b' }))).toEqual([
      { name: 'a', value: 'b', isRegex: false, isEqual: true },
      { name: 'a', value: 'b', isRegex: false, isEqual: false },
      { name: 'a', value: 'b', isRegex: true, isEqual: true },
      { name: 'a', value: 'b', isRegex: true, isEqual: false },
    ]);
    fc.assert(
      fc.property(fc.constantFrom(...MATCHER_OPS), fc.string(), (op, value) => {
        const m = { label: 'job', op, value };
        expect(toMatcher(toAmMatcher(m))).toEqual(m);
        expect(opOf(toAmMatcher(m))).toBe(op);
      }),
    );
  });

  it.each([
    ['job="api"', { label: 'job', op: '=', value: 'api' }],
    ['job = api', { label: 'job', op: '=', value: 'api' }],
    ['{job!="a\\"b"}', { label: 'job', op: '!=', value: 'a"b' }],
    ['alertname=~"Disk.*"', { label: 'alertname', op: '=~', value: 'Disk.*' }],
    ['env!~"prod|staging"', { label: 'env', op: '!~', value: 'prod|staging' }],
    ['job=""', { label: 'job', op: '=', value: '' }],
  ])('reads the filter %s', (text, matcher) => expect(parseFilter(text)).toEqual(matcher));

  it.each(['', 'job', '=api', '0job="a"', 'job=="a"', 'job="a', 'job=a"b'])('refuses the filter %s', (text) =>
    expect(parseFilter(text)).toBeNull(),
  );

  it('reads back any value amtool quotes', () => {
    fc.assert(
      fc.property(fc.constantFrom(...MATCHER_OPS), fc.string(), (op, value) => {
        expect(parseFilter(`label${op}${JSON.stringify(value)}`)).toEqual({ label: 'label', op, value });
      }),
    );
  });

  it('keeps a silence only when every filter equals one of its matchers, operator included', () => {
    const silence = {
      matchers: [
        { label: 'job', op: '=' as const, value: 'api' },
        { label: 'env', op: '=~' as const, value: 'prod' },
      ],
    };
    expect(passesFilters(silence, [])).toBe(true);
    expect(passesFilters(silence, [{ label: 'job', op: '=', value: 'api' }])).toBe(true);
    expect(passesFilters(silence, [{ label: 'env', op: '=~', value: 'prod' }, silence.matchers[0]])).toBe(true);
    expect(passesFilters(silence, [{ label: 'env', op: '=', value: 'prod' }])).toBe(false);
    expect(passesFilters(silence, [{ label: 'job', op: '=', value: 'web' }])).toBe(false);
    expect(passesFilters(silence, [{ label: 'team', op: '=', value: 'api' }])).toBe(false);
  });
});
