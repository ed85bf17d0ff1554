import { describe, expect, it } from 'vitest';
import { zodIssues } from '../http/issues';
import { compileMatcherValue, matcherMatches, matchesEmptyString, matchersSchema, type Matcher } from './matchers';
import { updateSilenceBody } from './schema';
import { parseUtcInstant } from './time';

const m = (label: string, op: Matcher['op'], value: string): Matcher => ({ label, op, value });
const paths = (input: unknown) => {
  const parsed = updateSilenceBody.safeParse(input);
  return parsed.success ? [] : zodIssues(parsed.error).map((i) => i.path);
};

describe('RE2 matcher values', () => {
  // Patterns other engines accept (JavaScript, or PCRE for the possessive `a++`) but RE2 does not.
  it.each([
    ['(?=x)', 'invalid or unsupported Perl syntax', true],
    ['(a)\\1', 'invalid escape sequence', true],
    ['\\u0041', 'invalid escape sequence', true],
    ['a++', 'invalid nested repetition operator', false],
    ['(?<=a)b', 'invalid named capture', true],
  ])('refuses %s', (pattern, message, javascriptAccepts) => {
    if (javascriptAccepts) expect(() => new RegExp(pattern)).not.toThrow();
    const compiled = compileMatcherValue(pattern);
    expect(compiled.ok).toBe(false);
    if (!compiled.ok) expect(compiled.message).toContain(message);
    const parsed = matchersSchema.safeParse([m('a', '=~', pattern), m('b', '=', 'x')]);
    expect(parsed.success).toBe(false);
    expect(zodIssues(parsed.error!).map((i) => i.path)).toEqual(['0.value']);
    expect(parsed.error!.issues[0].message).toContain(message);
  });

  it('compiles the value on its own, so it cannot break out of the anchoring', () => {
    expect(compileMatcherValue('a)|(b').ok).toBe(false);
  });

  it('matches the whole label value, as ^(?:value)$ does', () => {
    expect(matcherMatches(m('job', '=~', 'foo'), 'foo')).toBe(true);
    expect(matcherMatches(m('job', '=~', 'foo'), 'xfoo')).toBe(false);
    expect(matcherMatches(m('job', '=~', 'foo'), 'foox')).toBe(false);
    expect(matcherMatches(m('job', '=~', 'a|ab'), 'ab')).toBe(true);
    expect(matcherMatches(m('job', '!~', 'foo'), 'xfoo')).toBe(true);
    expect(matcherMatches(m('job', '=~', 'Postgres.*'), 'PostgresDown')).toBe(true);
  });
});

describe('the empty-string rule', () => {
  it.each([
    [m('a', '=', ''), true],
    [m('a', '=', 'x'), false],
    [m('a', '!=', 'x'), true],
    [m('a', '!=', ''), false],
    [m('a', '=~', '.*'), true],
    [m('a', '=~', '.+'), false],
    [m('a', '!~', 'x'), true],
    [m('a', '!~', '.*'), false],
  ])('%j matches "" → %s', (matcher, verdict) => expect(matchesEmptyString(matcher)).toBe(verdict));

  it.each([
    [[m('a', '=', '')]],
    [[m('a', '!=', 'x')]],
    [[m('a', '=~', '.*')]],
    [[m('a', '!~', 'x')]],
    [[m('a', '=~', 'x*'), m('b', '!=', 'y')]],
  ])('refuses matchers that all match the empty string: %j', (matchers) =>
    expect(paths({ matchers })).toEqual(['matchers']),
  );

  it('accepts a list where one matcher needs the label', () => {
    expect(paths({ matchers: [m('a', '=~', '.*'), m('b', '=', 'x')] })).toEqual([]);
  });

  it('does not pile the rule on a matcher whose regex is already refused', () => {
    expect(paths({ matchers: [m('a', '=~', '(?=x)')] })).toEqual(['matchers.0.value']);
  });
});

describe('the PATCH body', () => {
  it('reports every problem at once, each at its dotted path', () => {
    expect(
      paths({
        comment: '',
        startsAt: '2030-01-01T00:00:00+01:00',
        endsAt: '2030-01-01T00:00:00.0001Z',
        matchers: [
          m('1a', '=', 'x'),
          { label: 'b', op: '==', value: 'x' },
          m('c', '=~', '(?=x)'),
          { label: 'd', op: '=', value: 'x'.repeat(1025) },
        ],
        extra: true,
      }).sort(),
    ).toEqual(
      [
        'comment',
        'endsAt',
        'extra',
        'matchers.0.label',
        'matchers.1.op',
        'matchers.2.value',
        'matchers.3.value',
        'startsAt',
      ].sort(),
    );
  });

  it('limits matchers to 1..64 and labels to 256 characters', () => {
    expect(paths({ matchers: [] })).toEqual(['matchers']);
    expect(paths({ matchers: Array.from({ length: 65 }, (_, i) => m(`l${i}`, '=', 'x')) })).toEqual(['matchers']);
    expect(paths({ matchers: [m('a'.repeat(257), '=', 'x')] })).toEqual(['matchers.0.label']);
    expect(paths({ matchers: [m('a'.repeat(256), '=', 'x')] })).toEqual([]);
  });

  it('wants endsAt after startsAt when both are sent', () => {
    expect(paths({ startsAt: '2030-01-01T01:00:00Z', endsAt: '2030-01-01T01:00:00.000Z' })).toEqual(['endsAt']);
    expect(paths({ startsAt: '2030-01-01T01:00:00Z', endsAt: '2030-01-01T01:00:00.001Z' })).toEqual([]);
  });

  it('accepts {} and a comment of 1..1000 characters', () => {
    expect(paths({})).toEqual([]);
    expect(paths({ comment: 'x'.repeat(1000) })).toEqual([]);
    expect(paths({ comment: 'x'.repeat(1001) })).toEqual(['comment']);
  });
});

describe('UTC timestamps', () => {
  it.each([
    '2030-01-31T14:00:00Z',
    '2030-01-31T14:00:00.1Z',
    '2030-01-31T14:00:00.12Z',
    '2030-01-31T14:00:00.123Z',
    '2028-02-29T00:00:00Z',
  ])('accepts %s', (text) => expect(parseUtcInstant(text)).not.toBeNull());
  it.each([
    '2030-01-31T14:00:00.1234Z',
    '2030-01-31T14:00:00+00:00',
    '2030-01-31T14:00:00-05:00',
    '2030-01-31T14:00:00z',
    '2030-01-31t14:00:00Z',
    '2030-01-31 14:00:00Z',
    '2030-01-31T14:00Z',
    '2030-02-30T00:00:00Z',
    '2030-01-31T24:00:00Z',
    '2030-01-31T23:59:60Z',
    '2030-01-31',
  ])('refuses %s', (text) => expect(parseUtcInstant(text)).toBeNull());
  it('keeps milliseconds', () =>
    expect(parseUtcInstant('2030-01-31T14:00:00.5Z')!.toISOString()).toBe('2030-01-31T14:00:00.500Z'));
});
