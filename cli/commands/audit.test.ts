import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { parseSince } from './audit';

describe('parseSince', () => {
  const now = Date.parse('2026-11-22T12:00:00.000Z');

  it('reads durations back from now', () => {
    expect(parseSince('90m', now)).toBe('2026-11-22T10:30:00.000Z');
    expect(parseSince('24h', now)).toBe('2026-11-21T12:00:00.000Z');
    expect(parseSince('7d', now)).toBe('2026-11-15T12:00:00.000Z');
    expect(parseSince('2w', now)).toBe('2026-11-08T12:00:00.000Z');
  });

  it('reads RFC 3339 instants and dates', () => {
    expect(parseSince('2026-11-01T08:00:00+01:00', now)).toBe('2026-11-01T07:00:00.000Z');
    expect(parseSince('2026-11-01', now)).toBe('2026-11-01T00:00:00.000Z');
  });

  it('refuses anything else', () => {
    for (const bad of ['yesterday', '7 days', '-1d', '2026-13-45T00:00:00Z', ''])
      expect(() => parseSince(bad, now)).toThrow(InvalidArgumentError);
  });
});
