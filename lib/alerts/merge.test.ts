import { describe, expect, it } from 'vitest';
import { mergeTimes, type AlertTimes } from './merge';
import type { ReceivedAlert } from './schema';

const now = new Date('2030-01-01T12:00:00.000Z');
const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000);
const sent = (startsAt: Date, endsAt: Date, endsByTimeout = false): ReceivedAlert => ({
  labels: { a: 'b' },
  annotations: {},
  generatorUrl: '',
  startsAt,
  endsAt,
  endsByTimeout,
  fingerprint: '0000000000000000',
  sizeBytes: 2,
  index: 0,
});
const stored = (startsAt: Date, endsAt: Date, endsByTimeout = false): AlertTimes => ({
  startsAt,
  endsAt,
  endsByTimeout,
  firingNotifiedAt: at(-9),
});

describe('mergeTimes (Alertmanager’s Put and Merge)', () => {
  it('a repeat within the firing keeps the earliest start and the notification', () => {
    const merged = mergeTimes(stored(at(-10), at(5), true), sent(now, at(5), true), now);
    expect(merged.startsAt).toEqual(at(-10));
    expect(merged.firingNotifiedAt).toEqual(at(-9));
  });

  it('a later explicit end rules over a timeout end sent later', () => {
    const merged = mergeTimes(stored(at(-10), at(30)), sent(now, at(5), true), now);
    expect(merged.endsAt).toEqual(at(30));
    expect(merged.endsByTimeout).toBe(false);
  });

  it('a resolve ends it at the end sent; both resolved: the later end', () => {
    expect(mergeTimes(stored(at(-10), at(5)), sent(at(-10), at(-1)), now).endsAt).toEqual(at(-1));
    expect(mergeTimes(stored(at(-10), at(-1)), sent(at(-5), at(-3)), now).endsAt).toEqual(at(-1));
  });

  it('no overlap (a re-fire after resolving, or Prometheus’s resend from the same start) replaces it', () => {
    const refire = mergeTimes(stored(at(-30), at(-20)), sent(now, at(5), true), now);
    expect(refire).toEqual({ startsAt: now, endsAt: at(5), endsByTimeout: true, firingNotifiedAt: null });
    const resend = mergeTimes(stored(at(-10), at(2)), sent(at(-10), at(4)), now);
    expect(resend.startsAt).toEqual(at(-10));
    expect(resend.endsAt).toEqual(at(4));
  });
});
