import { PerformanceObserver } from 'node:perf_hooks';
import { longStatementsBetween } from '../db/long-statements';
import { keepLatest } from '../keep-latest';
import { passesBetween } from '../jobs/runner';

/**
 * What else happened while a request was slow, for its log line (lib/http/request.ts): garbage collection
 * pauses, stretches when the event loop was held (no timer ran), background passes under way, and the statements
 * that took long (on the embedded database, those that held its one backend). Kept for the last few hundred of each.
 */
type Span = { start: number; ms: number };
type State = { gc: Span[]; blocked: Span[]; started: boolean };
const KEPT = 512;
// A timer this often; one that fires this much late means the loop was held meanwhile.
const TICK_MS = 10;
const BLOCKED_MS = 15;

const state = ((globalThis as unknown as { __svcStalls?: State }).__svcStalls ??= {
  gc: [],
  blocked: [],
  started: false,
});

const keep = (list: Span[], span: Span) => keepLatest(list, span, KEPT);

/** Starts watching (once per process): a GC observer and a timer that notes late ticks. */
export function watchStalls(): void {
  if (state.started) return;
  state.started = true;
  new PerformanceObserver((entries) => {
    for (const e of entries.getEntries()) keep(state.gc, { start: e.startTime, ms: e.duration });
  }).observe({ entryTypes: ['gc'] });
  let expected = performance.now() + TICK_MS;
  setInterval(() => {
    const now = performance.now();
    if (now - expected >= BLOCKED_MS) keep(state.blocked, { start: expected, ms: now - expected });
    expected = now + TICK_MS;
  }, TICK_MS).unref();
}

/** Milliseconds of `spans` (in time order, none overlapping another) within `from`..`to`: newest first, until one ended before. */
function overlap(spans: Span[], from: number, to: number): number {
  let sum = 0;
  for (let i = spans.length - 1; i >= 0 && spans[i].start + spans[i].ms > from; i--)
    sum += Math.max(0, Math.min(to, spans[i].start + spans[i].ms) - Math.max(from, spans[i].start));
  return sum;
}
const round = (ms: number) => Math.round(ms * 10) / 10;

export type Stalls = {
  /** Milliseconds of GC pause within the request. */
  gcMs: number;
  /** Milliseconds the event loop was held (timers late by ≥ 15 ms) within the request. */
  loopHeldMs: number;
  /** Background passes that ran during the request. */
  background: string[];
  /**
   * Statements that took ≥ 10 ms during the request, longest first (lib/db/long-statements.ts): on the embedded
   * database, those that held its one backend; on PostgreSQL, round trips (the server's lock waits included) and
   * waits for a pooled connection.
   */
  database: { statement: string; ms: number }[];
};

/** What overlapped `from`..`to` (performance.now). */
export function stallsBetween(from: number, to: number): Stalls {
  return {
    gcMs: round(overlap(state.gc, from, to)),
    loopHeldMs: round(overlap(state.blocked, from, to)),
    background: [...new Set(passesBetween(from, to).map((p) => p.job))],
    database: longStatementsBetween(from, to)
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 3)
      .map((s) => ({ statement: s.statement, ms: round(s.ms) })),
  };
}
