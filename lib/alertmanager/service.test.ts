import { describe, expect, it } from 'vitest';
import { silenceFields } from './service';
import { ApiError } from '../errors';
import type { PostableSilence } from './model';

const valid = (): PostableSilence => ({
  matchers: [{ name: 'job', value: 'api', isRegex: false, isEqual: true }],
  startsAt: '2030-01-31T15:00:00+01:00',
  endsAt: '2030-01-31T16:00:00.123456Z',
  createdBy: 'someone',
  comment: 'maintenance',
});

function issuesOf(body: PostableSilence): string[] {
  try {
    silenceFields(body);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'invalid_request') return (err.issues ?? []).map((i) => i.path).sort();
    throw err;
  }
  return [];
}

describe('a posted silence under /v1 rules', () => {
  it('normalises the times to UTC milliseconds and the matchers to /v1 operators', () => {
    expect(silenceFields(valid())).toEqual({
      comment: 'maintenance',
      matchers: [{ label: 'job', op: '=', value: 'api' }],
      startsAt: '2030-01-31T14:00:00.000Z',
      endsAt: '2030-01-31T16:00:00.123Z',
    });
  });

  it("reports every problem at the Alertmanager model's paths", () => {
    expect(
      issuesOf({
        ...valid(),
        matchers: [
          { name: '0job', value: 'a', isRegex: false, isEqual: true },
          { name: 'env', value: '(', isRegex: true, isEqual: true },
        ],
        startsAt: 'now',
        comment: '',
      }),
    ).toEqual(['comment', 'matchers.0.name', 'matchers.1.value', 'startsAt']);
    expect(issuesOf({ ...valid(), endsAt: '2030-01-31T13:00:00Z' })).toEqual(['endsAt']);
  });

  it('refuses matchers that all match the empty string, which Alertmanager itself accepts', () => {
    expect(issuesOf({ ...valid(), matchers: [{ name: 'job', value: 'api', isRegex: false, isEqual: false }] })).toEqual(
      ['matchers'],
    );
  });
});
