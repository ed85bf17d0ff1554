import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors';
import { parseAlertQuery } from './alert-query';

const parse = (query: string) => parseAlertQuery(new URLSearchParams(query));

describe('parseAlertQuery', () => {
  it('reads every flag as true unless sent as a word that is not true, as go-openapi does', () => {
    expect(parse('')).toMatchObject({ active: true, silenced: true, inhibited: true, unprocessed: true });
    expect(parse('active=false&silenced=0&inhibited=no&unprocessed=')).toMatchObject({
      active: false,
      silenced: false,
      inhibited: false,
      unprocessed: true,
    });
    expect(parse('silenced=TRUE&active=yes&inhibited=bogus')).toMatchObject({
      silenced: true,
      active: true,
      inhibited: false,
    });
  });

  it('reads repeatable filters in Alertmanager’s matcher syntax', () => {
    expect(parse('filter=alertname%3D%22Disk%22&filter=job%3D~api.*').filters).toEqual([
      { label: 'alertname', op: '=', value: 'Disk' },
      { label: 'job', op: '=~', value: 'api.*' },
    ]);
  });

  it('400 for a filter that is not a matcher, a regex RE2 refuses, or a bad receiver regex', () => {
    for (const q of ['filter=nonsense', 'filter=a%3D~%22(%22', 'receiver=(']) {
      expect(() => parse(q), q).toThrow(ApiError);
    }
    expect(parse('receiver=proj.*').receiver?.matches('project')).toBe(true);
    expect(parse('receiver=proj').receiver?.matches('project')).toBe(false);
  });
});
