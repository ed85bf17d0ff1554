import { settings } from '../settings/settings';

// The schedule's rules live with the settings, which read WEBHOOK_RETRY_SCHEDULE once and refuse a bad one at start.
export { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from '../settings/settings';

export function retrySchedule(): number[] {
  return settings().WEBHOOK_RETRY_SCHEDULE;
}

/** `Retry-After` as milliseconds from now: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1_000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * The delay before the next attempt after `failed` failures counted from the schedule's start, or null when the
 * schedule is used up. Jitter ±20 % spreads retries of one outage; a longer `Retry-After` wins.
 */
export function nextRetryDelay(
  failed: number,
  schedule: number[],
  retryAfter: number | null,
  random: () => number = Math.random,
): number | null {
  if (failed < 1 || failed > schedule.length) return null;
  const jittered = Math.round(schedule[failed - 1] * (0.8 + 0.4 * random()));
  return retryAfter !== null && retryAfter > jittered ? retryAfter : jittered;
}

/** Whether an answer is worth retrying: no answer (timeout, connection), 429, or a server error. */
export function isRetryable(status: number | null): boolean {
  return status === null || status === 429 || status >= 500;
}

/** A subscription's retry policy, in seconds (PRODUCT.md's `retryPolicy`). */
export type BackoffPolicy = { minBackoffSeconds: number; maxBackoffSeconds: number };

/**
 * The wait after a message's n-th failed attempt: capped exponential with full jitter,
 * `random × min(max, min × 2^(n-1))`, so the retries of one outage spread over the whole window. A longer
 * `Retry-After` wins, up to the cap.
 */
export function backoffDelayMs(
  policy: BackoffPolicy,
  failedAttempts: number,
  retryAfter: number | null,
  random: () => number = Math.random,
): number {
  const capMs = policy.maxBackoffSeconds * 1_000;
  const ceiling = Math.min(capMs, policy.minBackoffSeconds * 1_000 * 2 ** Math.max(0, failedAttempts - 1));
  const jittered = Math.round(ceiling * random());
  return retryAfter !== null && retryAfter > jittered ? Math.min(retryAfter, capMs) : jittered;
}
