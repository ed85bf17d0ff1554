/**
 * The bodies a silence's fields refuse, one table for the update (PATCH) and the create (POST), so both
 * specs prove the same rules: each case overrides a body that is valid for both operations.
 */
export type SilenceRefusal = {
  name: string;
  body: Record<string, unknown>;
  /** The dotted paths of every issue expected, in any order. */
  issues: string[];
  /** A message the issue at `path` must contain (RE2's own words, for instance). */
  message?: { path: string; contains: string };
};

/** Valid as a create, and as a PATCH of a scheduled silence that starts within the next years. */
export const validSilenceBody = (comment = 'e2e refusal base') => ({
  comment,
  matchers: [{ label: 'alertname', op: '=', value: 'RefusalBase' }],
  endsAt: '2039-01-01T00:00:00.000Z',
});

const RE2_REFUSALS: [pattern: string, re2Message: string][] = [
  ['(?=x)', 'invalid or unsupported Perl syntax'],
  ['(a)\\1', 'invalid escape sequence'],
  ['\\u0041', 'invalid escape sequence'],
  ['a++', 'invalid nested repetition operator'],
  ['a)|(b', 'unexpected )'],
];

const EMPTY_MATCHING = [
  { label: 'team', op: '=', value: '' },
  { label: 'team', op: '!=', value: 'x' },
  { label: 'team', op: '=~', value: '.*' },
  { label: 'team', op: '!~', value: 'x' },
];

export const SILENCE_BODY_REFUSALS: SilenceRefusal[] = [
  {
    name: 'every problem at once, each at its dotted path',
    body: {
      comment: 'x'.repeat(1001),
      startsAt: '2031-01-01T00:00:00+02:00',
      endsAt: '2031-01-01T00:00:00.1234Z',
      matchers: [
        { label: '9lives', op: '=', value: 'x' },
        { label: 'ok', op: '=~', value: '(?=x)' },
        { label: 'ok', op: '===', value: 'x' },
        { label: 'ok', op: '=', value: 'v'.repeat(1025) },
        { label: 'ok', op: '=' },
      ],
      state: 'active',
    },
    issues: [
      'comment',
      'startsAt',
      'endsAt',
      'matchers.0.label',
      'matchers.1.value',
      'matchers.2.op',
      'matchers.3.value',
      'matchers.4.value',
      'state',
    ],
    message: { path: 'matchers.1.value', contains: 'invalid or unsupported Perl syntax' },
  },
  { name: 'an empty comment', body: { comment: '' }, issues: ['comment'] },
  { name: 'no matchers', body: { matchers: [] }, issues: ['matchers'] },
  ...RE2_REFUSALS.flatMap(([pattern, re2Message]) =>
    ['=~', '!~'].map((op) => ({
      name: `RE2 refuses ${pattern} with ${op}`,
      body: {
        matchers: [
          { label: 'env', op: '=', value: 'prod' },
          { label: 'job', op, value: pattern },
        ],
      },
      issues: ['matchers.1.value'],
      message: { path: 'matchers.1.value', contains: re2Message },
    })),
  ),
  ...EMPTY_MATCHING.map((matcher) => ({
    name: `a lone ${matcher.op} matcher that matches the empty string`,
    body: { matchers: [matcher] },
    issues: ['matchers'],
  })),
  { name: 'matchers that all match the empty string', body: { matchers: EMPTY_MATCHING }, issues: ['matchers'] },
  {
    name: 'an end before the start',
    body: { startsAt: '2035-01-01T00:00:00Z', endsAt: '2034-12-31T00:00:00Z' },
    issues: ['endsAt'],
  },
  { name: 'a lower-case z', body: { endsAt: '2036-01-01T00:00:00z' }, issues: ['endsAt'] },
  { name: 'an impossible date', body: { startsAt: '2035-02-30T00:00:00Z' }, issues: ['startsAt'] },
];

/** The matchers of the empty-string cases, for the update's test that one real matcher is enough. */
export const EMPTY_MATCHING_MATCHERS = EMPTY_MATCHING;
