import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRfc3339 } from './time';

describe('RFC 3339 times from Alertmanager clients', () => {
  it.each([
    ['2030-01-31T14:00:00Z', '2030-01-31T14:00:00.000Z'],
    ['2030-01-31T14:00:00.123456789Z', '2030-01-31T14:00:00.123Z'],
    ['2030-01-31T15:30:00.5+01:30', '2030-01-31T14:00:00.500Z'],
    ['2030-01-31T09:00:00-05:00', '2030-01-31T14:00:00.000Z'],
    ['2030-01-01T00:30:00+01:00', '2029-12-31T23:30:00.000Z'],
    ['2030-01-31t14:00:00z', '2030-01-31T14:00:00.000Z'],
  ])('reads %s as %s', (text, utc) => expect(parseRfc3339(text)?.toISOString()).toBe(utc));

  it.each([
    'tomorrow',
    '2030-01-31',
    '2030-01-31T14:00:00',
    '2030-02-30T14:00:00Z',
    '2030-01-31T24:00:00Z',
    '2030-01-31T14:00:00.1234567890Z',
    '2030-01-31T14:00:00+24:00',
    '2030-01-31T14:00:00+01:60',
    '2030-01-31 14:00:00Z',
  ])('refuses %s', (text) => expect(parseRfc3339(text)).toBeNull());

  it('names the same instant whatever offset it is written in', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1970-01-02T00:00:00Z'), max: new Date('9998-12-30T00:00:00Z'), noInvalidDate: true }),
        fc.integer({ min: -23 * 60 - 59, max: 23 * 60 + 59 }),
        (at, offsetMinutes) => {
          const local = new Date(at.getTime() + offsetMinutes * 60_000).toISOString().slice(0, 23);
          const sign = offsetMinutes < 0 ? '-' : '+';
          const abs = Math.abs(offsetMinutes);
          const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
          expect(parseRfc3339(`${local}${offset}`)?.getTime()).toBe(at.getTime());
        },
      ),
    );
  });
});
