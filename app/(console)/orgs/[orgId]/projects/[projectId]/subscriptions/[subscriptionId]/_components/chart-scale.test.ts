import { describe, expect, it } from 'vitest';
import { scaleTop, totals } from './chart-scale';

describe("the activity chart's scale", () => {
  it('rounds the largest minute up to 1, 2 or 5 times a power of ten, at least 5', () => {
    expect([0, 3, 5, 6, 10, 11, 20, 21, 99, 101, 4_999, 5_001].map(scaleTop)).toEqual([
      5, 5, 5, 10, 10, 20, 20, 50, 100, 200, 5_000, 10_000,
    ]);
  });

  it('adds up the hour', () => {
    const at = '2026-11-28T10:00:00.000Z';
    expect(
      totals([
        { at, delivered: 3, failed: 1, expired: 0 },
        { at, delivered: 2, failed: 0, expired: 4 },
      ]),
    ).toEqual({ delivered: 5, failed: 1, expired: 4 });
  });
});
