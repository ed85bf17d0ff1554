import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  backoffDelayMs,
  DEFAULT_RETRY_SCHEDULE,
  isRetryable,
  nextRetryDelay,
  parseRetrySchedule,
  retryAfterMs,
} from './retry';

describe('retry schedule', () => {
  it('reads the default: seven delays adding up to about a day', () => {
    const schedule = parseRetrySchedule(DEFAULT_RETRY_SCHEDULE);
    expect(schedule).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(schedule.reduce((a, b) => a + b) / 3_600_000).toBeGreaterThan(27);
  });

  it('refuses a malformed schedule loudly, naming the bad part', () => {
    for (const bad of ['', '5', '5x', '5s,,5m', '-5s', '1.5h'])
      expect(() => parseRetrySchedule(bad)).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
  });

  it('jitters each delay within ±20 %, and a longer Retry-After wins', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 10_000_000 }), { minLength: 1, maxLength: 10 }),
        fc.nat(20),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.option(fc.integer({ min: 0, max: 20_000_000 })),
        (schedule, n, r, retryAfter) => {
          const delay = nextRetryDelay(n, schedule, retryAfter, () => r);
          if (n < 1 || n > schedule.length) {
            expect(delay).toBeNull();
            return;
          }
          const base = schedule[n - 1];
          const jittered = Math.round(base * (0.8 + 0.4 * r));
          expect(jittered).toBeGreaterThanOrEqual(Math.floor(base * 0.8));
          expect(jittered).toBeLessThanOrEqual(Math.ceil(base * 1.2));
          expect(delay).toBe(retryAfter !== null && retryAfter > jittered ? retryAfter : jittered);
        },
      ),
    );
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-11-24T12:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Tue, 24 Nov 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Tue, 24 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
  });

  it('retries no answer, 429 and 5xx only', () => {
    expect([null, 429, 500, 502, 503, 599].every(isRetryable)).toBe(true);
    expect([200, 204, 301, 400, 401, 404, 410, 422].some(isRetryable)).toBe(false);
  });
});

describe('backoffDelayMs', () => {
  const policy = { minBackoffSeconds: 10, maxBackoffSeconds: 600 };

  it('doubles from the minimum after each failure and stops at the maximum, with full jitter', () => {
    expect([1, 2, 3, 4, 7, 8, 20].map((n) => backoffDelayMs(policy, n, null, () => 1))).toEqual([
      10_000, 20_000, 40_000, 80_000, 600_000, 600_000, 600_000,
    ]);
    expect(backoffDelayMs(policy, 3, null, () => 0)).toBe(0);
    expect(backoffDelayMs(policy, 3, null, () => 0.5)).toBe(20_000);
  });

  it('a longer Retry-After wins, but never past the maximum', () => {
    expect(backoffDelayMs(policy, 1, 45_000, () => 0.5)).toBe(45_000);
    expect(backoffDelayMs(policy, 1, 3_600_000, () => 0.5)).toBe(600_000);
    expect(backoffDelayMs(policy, 4, 1_000, () => 0.5)).toBe(40_000);
  });

  it('a minimum of 0 retries at once', () => {
    expect(backoffDelayMs({ minBackoffSeconds: 0, maxBackoffSeconds: 1 }, 5, null, () => 1)).toBe(0);
  });
});
