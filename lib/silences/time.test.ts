import { describe, expect, it } from 'vitest';
import { formatInstant, parseUtcInstant } from './time';

describe('RFC 3339 UTC instants', () => {
  it.each([
    ['0000-01-01T00:00:00Z', '0000-01-01T00:00:00.000Z'],
    ['0001-02-03T04:05:06.7Z', '0001-02-03T04:05:06.700Z'],
    ['0099-12-31T23:59:59.999Z', '0099-12-31T23:59:59.999Z'],
    ['2030-01-31T14:00:00.000Z', '2030-01-31T14:00:00.000Z'],
  ])('reads %s as the year written', (text, formatted) => {
    const at = parseUtcInstant(text);
    expect(at && formatInstant(at)).toBe(formatted);
  });

  it.each([
    '0099-02-29T00:00:00Z',
    '2025-02-30T00:00:00Z',
    '2030-01-31T24:00:00Z',
    '2030-01-31T14:00:00+00:00',
    '2030-01-31t14:00:00z',
    '2030-01-31T14:00:00.0001Z',
  ])('refuses %s', (text) => expect(parseUtcInstant(text)).toBeNull());
});
