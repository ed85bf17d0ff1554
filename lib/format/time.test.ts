import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { age, clockMinute, dayAndSecond, exactTime, localTime, pastTime, relativeTime, shortDate } from './time';

const now = Date.parse('2026-11-25T14:00:00.000Z');
const at = (ms: number) => new Date(now + ms).toISOString();
const MINUTE = 60_000;
const DAY = 86_400_000;

describe('relativeTime', () => {
  it.each([
    [0, 'just now'],
    [-59_000, 'just now'],
    [30_000, 'in 30 seconds'],
    [-3 * MINUTE, '3 minutes ago'],
    [90 * MINUTE, 'in 2 hours'],
    [-DAY, '1 day ago'],
    [2 * DAY, 'in 2 days'],
    [90 * DAY, 'in 3 months'],
    [-400 * DAY, '1 year ago'],
  ])('%d ms from now is "%s"', (ms, words) => {
    expect(relativeTime(at(ms), now)).toBe(words);
  });

  it('says the future with "in" and the past with "ago", whatever the distance', () => {
    fc.assert(
      fc.property(fc.integer({ min: 60_000, max: 50 * 365 * DAY }), (ms) => {
        expect(relativeTime(at(ms), now)).toMatch(/^in \d+ \w+$/);
        expect(relativeTime(at(-ms), now)).toMatch(/^\d+ \w+ ago$/);
      }),
    );
  });
});

describe('pastTime', () => {
  it('is never in the future, however far the clock lags behind what happened', () => {
    fc.assert(
      fc.property(fc.integer({ min: -50 * 365 * DAY, max: 50 * 365 * DAY }), (ms) => {
        expect(pastTime(at(ms), now)).toMatch(ms > -MINUTE ? /^just now$/ : /^\d+ \w+ ago$/);
      }),
    );
    expect(pastTime(at(54_000), now)).toBe('just now');
    expect(pastTime(at(-3 * MINUTE), now)).toBe('3 minutes ago');
  });
});

describe('absolute dates', () => {
  it('are written in the time zone of the machine, in English', () => {
    const iso = '2026-03-07T09:05:03.000Z';
    const local = new Date(iso);
    expect(shortDate(iso)).toMatch(new RegExp(`^[A-Z][a-z]{2} ${local.getDate()}, ${local.getFullYear()}$`));
    expect(localTime(iso)).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} (AM|PM)$/);
    expect(exactTime(iso)).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}:03 (AM|PM) GMT[+-]\d{2}:\d{2}$/);
  });
});

describe("the 'utc' zone", () => {
  const zone = process.env.TZ;
  afterEach(() => {
    process.env.TZ = zone;
  });

  // What the server renders and the browser hydrates: the UTC reading, whatever the zone of either.
  it('is the UTC day in any time zone, where the default is the local one', () => {
    const lateInUtc = '2026-03-07T23:30:00.000Z';
    for (const [tz, local] of [
      ['Asia/Tokyo', 'Mar 8, 2026'],
      ['America/Los_Angeles', 'Mar 7, 2026'],
      ['UTC', 'Mar 7, 2026'],
    ]) {
      process.env.TZ = tz;
      expect(shortDate(lateInUtc, 'utc')).toBe('Mar 7, 2026');
      expect(shortDate(lateInUtc)).toBe(local);
    }
  });

  // Any instant, read in any of these zones (summer-time changes both ways, half-hour and 14-hour offsets), gives
  // what a machine in UTC gives: the hours a local clock skips or repeats included.
  it('reads every instant as a machine in UTC does, in every zone', () => {
    const zones = ['America/Los_Angeles', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kolkata', 'Pacific/Kiritimati'];
    const min = Date.parse('2020-01-01T00:00:00Z');
    const max = Date.parse('2030-12-31T23:59:59Z');
    fc.assert(
      fc.property(fc.integer({ min, max }), fc.constantFrom(...zones), (ms, tz) => {
        const iso = new Date(ms).toISOString();
        process.env.TZ = 'UTC';
        const expected = [shortDate(iso), localTime(iso), exactTime(iso)];
        process.env.TZ = tz;
        expect([shortDate(iso, 'utc'), localTime(iso, 'utc'), exactTime(iso, 'utc')]).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('lands in the hour a local clock skips', () => {
    process.env.TZ = 'America/Los_Angeles';
    // 02:30 on the day Los Angeles's clocks jump from 2:00 to 3:00; in UTC it exists.
    expect(localTime('2026-03-08T02:30:00.000Z', 'utc')).toBe('Mar 8, 2026, 2:30 AM');
    expect(exactTime('2026-03-08T02:30:05.000Z', 'utc')).toBe('Mar 8, 2026, 2:30:05 AM GMT+00:00');
  });
});

describe('without Intl', () => {
  afterEach(() => vi.restoreAllMocks());

  // The reason this module exists: a page's first Intl formatter costs Chromium tens of milliseconds of locale
  // loading in one task. A console date must not build one.
  it('formats every kind of date without building an Intl formatter', () => {
    const built = [
      vi.spyOn(Intl, 'DateTimeFormat'),
      vi.spyOn(Intl, 'RelativeTimeFormat'),
      vi.spyOn(Intl, 'NumberFormat'),
      vi.spyOn(Intl, 'PluralRules'),
      vi.spyOn(Date.prototype, 'toLocaleString'),
      vi.spyOn(Date.prototype, 'toLocaleDateString'),
      vi.spyOn(Date.prototype, 'toLocaleTimeString'),
    ];
    for (const ms of [0, 30_000, -3 * MINUTE, 2 * DAY, -400 * DAY]) {
      relativeTime(at(ms), now);
      shortDate(at(ms));
      localTime(at(ms));
      exactTime(at(ms));
      shortDate(at(ms), 'utc');
      localTime(at(ms), 'utc');
      exactTime(at(ms), 'utc');
    }
    for (const spy of built) expect(spy).not.toHaveBeenCalled();
  });
});

describe('age and clockMinute', () => {
  it('says how old something is without "ago", rounded down, never in the future', () => {
    expect(age(at(-12_000), now)).toBe('under a minute');
    expect(age(at(-3 * MINUTE - 50_000), now)).toBe('3 minutes');
    expect(age(at(-DAY - MINUTE), now)).toBe('1 day');
    expect(age(at(5_000), now)).toBe('under a minute');
  });

  it('writes a minute as the 24-hour clock reads it', () => {
    expect(clockMinute('2026-11-25T14:05:00.000Z', 'utc')).toBe('14:05');
    expect(clockMinute('2026-11-25T09:00:59.000Z', 'utc')).toBe('09:00');
    expect(dayAndSecond('2026-11-25T09:00:59.000Z', 'utc')).toBe('Nov 25, 09:00:59');
  });
});
