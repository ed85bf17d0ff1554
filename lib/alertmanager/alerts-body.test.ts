import { describe, expect, it } from 'vitest';
import { parseAlertsBody, RESOLVE_TIMEOUT_MS, type AlertsBody } from './alerts-body';

const now = new Date('2030-01-01T12:00:00.000Z');
const parse = (body: unknown) => parseAlertsBody(typeof body === 'string' ? body : JSON.stringify(body), now);
const alertsOf = (r: AlertsBody) => {
  if (r.kind !== 'alerts') throw new Error(`expected alerts, got ${JSON.stringify(r)}`);
  return r;
};

describe('parseAlertsBody: the three layers of Alertmanager 0.25', () => {
  it('an undecodable body is 400’s object: not JSON, not an array, a label value not a string', () => {
    for (const body of ['{', '{"labels":{}}', '[{"labels":{"a":1}}]', '[3]', '[{"labels":{},"startsAt":5}]']) {
      const r = parse(body);
      expect(r.kind, body).toBe('undecodable');
      if (r.kind === 'undecodable') expect(r.message).toMatch(/^parsing alerts body from "" failed, because /);
    }
  });

  it('a schema failure is 422’s message, index first: no labels, a bad date-time, a bad URI, no body', () => {
    expect(parse([{ labels: { a: 'b' } }, { annotations: {} }])).toEqual({
      kind: 'schema',
      message: '1.labels in body is required',
    });
    expect(parse([{ labels: { a: 'b' }, startsAt: 'yesterday' }])).toEqual({
      kind: 'schema',
      message: '0.startsAt in body must be of type date-time: "yesterday"',
    });
    expect(parse([{ labels: { a: 'b' }, generatorURL: 'not a uri' }])).toMatchObject({ kind: 'schema' });
    expect(parse([{ labels: { a: 'b' }, generatorURL: '/graph?g0.expr=up' }]).kind).toBe('alerts');
    expect(parse('')).toEqual({ kind: 'schema', message: 'alerts in body is required' });
  });

  it('refuses alerts one by one: a bad label name, endsAt before startsAt, no label left, a bad annotation name', () => {
    const r = alertsOf(
      parse([
        { labels: { 'x-y': '1' } },
        { labels: { a: 'b' }, startsAt: '2030-01-01T12:00:00Z', endsAt: '2030-01-01T11:00:00Z' },
        { labels: { a: '' } },
        { labels: { a: 'b' }, annotations: { 'bad name': 'x' } },
        { labels: { ok: 'yes' } },
      ]),
    );
    expect(r.refused.map((x) => [x.index, x.reason])).toEqual([
      [0, 'invalid label set: invalid name "x-y"'],
      [1, 'start time must be before end time'],
      [2, 'at least one label pair required'],
      [3, 'invalid annotations: invalid name "bad name"'],
    ]);
    expect(r.alerts.map((a) => a.labels)).toEqual([{ ok: 'yes' }]);
  });

  it('drops empty label values before the fingerprint', () => {
    const [a] = alertsOf(parse([{ labels: { alertname: 'X', empty: '' } }])).alerts;
    const [b] = alertsOf(parse([{ labels: { alertname: 'X' } }])).alerts;
    expect(a.labels).toEqual({ alertname: 'X' });
    expect(a.fingerprint).toBe(b.fingerprint);
  });
});

describe('parseAlertsBody: times as Alertmanager sets them', () => {
  it('no endsAt: now + 5 minutes (a timeout end); no startsAt: now', () => {
    const [a] = alertsOf(parse([{ labels: { a: 'b' } }])).alerts;
    expect(a.startsAt).toEqual(now);
    expect(a.endsAt.getTime()).toBe(now.getTime() + RESOLVE_TIMEOUT_MS);
    expect(a.endsByTimeout).toBe(true);
  });

  it('only endsAt: the start is the end (resolved at once when it is past)', () => {
    const [a] = alertsOf(parse([{ labels: { a: 'b' }, endsAt: '2030-01-01T11:00:00Z' }])).alerts;
    expect(a.startsAt.toISOString()).toBe('2030-01-01T11:00:00.000Z');
    expect(a.endsAt.toISOString()).toBe('2030-01-01T11:00:00.000Z');
    expect(a.endsByTimeout).toBe(false);
  });

  it('0001-01-01T00:00:00Z (what amtool sends) is "not given"; offsets and nanoseconds are read', () => {
    const zero = '0001-01-01T00:00:00.000Z';
    const [a] = alertsOf(parse([{ labels: { a: 'b' }, startsAt: zero, endsAt: zero }])).alerts;
    expect(a.startsAt).toEqual(now);
    expect(a.endsByTimeout).toBe(true);
    const [b] = alertsOf(parse([{ labels: { a: 'b' }, startsAt: '2030-01-01T13:00:00.123456789+02:00' }])).alerts;
    expect(b.startsAt.toISOString()).toBe('2030-01-01T11:00:00.123Z');
  });
});
