import { inBackground } from '../db/priority';
import { keepLatest } from '../keep-latest';

/**
 * Background work, off every request's path. Each floor and feature exports its own jobs (a `jobs.ts` beside its
 * code); server/jobs.ts lists them and start-up runs them here. Nothing in this module knows a feature.
 */
export type BackgroundJob = {
  /** Names the job in the log line of a failed pass. */
  name: string;
  /** One pass: what it found due and handled. A job without one only holds work to release at shutdown. */
  run?: () => Promise<unknown>;
  /** The wait after a pass; the first pass runs at start. */
  everyMs?: number;
  /** Whether a pass's result means more is due at once (a full batch): then the next pass starts without waiting. */
  again?: (result: unknown) => boolean;
  /** Whether this process runs the job at all (email only with SMTP_URL); read at start. */
  enabled?: () => boolean;
  /** Lets go of what this instance holds (claims, leases) at shutdown, so another instance takes it over at once. */
  release?: () => Promise<void>;
  /** Receives, at start, a function that starts the next pass now instead of after the wait (new work arrived). */
  wakeWith?: (wake: () => void) => void;
  /**
   * How long a wake waits before its pass, so that the wakes of that moment share one pass (several sends
   * finishing free room for one claim of several batches). 0 by default.
   */
  wakeDelayMs?: number;
};

/** How often the housekeeping passes (deleting what outlived its use) run in each process. */
export const HOUSEKEEPING_EVERY_MS = 15 * 60_000;

/** One pass of a job, on the process's clock (performance.now); `end` is missing while it runs. */
export type Pass = { job: string; start: number; end?: number };
const KEPT_PASSES = 128;

/** The jobs this process started (each name once), whether shutdown has begun, and the latest passes. */
type State = { stopped: boolean; jobs: BackgroundJob[]; passes: Pass[] };
// On globalThis: start-up and shutdown may load their own copies of this module, and every copy must agree.
const state = ((globalThis as unknown as { __svcBackgroundJobs?: State }).__svcBackgroundJobs ??= {
  stopped: false,
  jobs: [],
  passes: [],
});

/** The passes that ran during `from`..`to` (performance.now), for a slow request's log line. */
export function passesBetween(from: number, to: number): Pass[] {
  return state.passes.filter((p) => p.start < to && (p.end === undefined || p.end > from));
}

/**
 * Runs each job in this process: a pass, then the job's wait, then the next pass; never two passes of one job at
 * once. On several instances each runs them all; the jobs' own claims keep them from doing the same work twice.
 */
export function startBackgroundJobs(jobs: readonly BackgroundJob[]): void {
  for (const job of jobs) {
    if (state.jobs.some((started) => started.name === job.name) || job.enabled?.() === false) continue;
    state.jobs.push(job);
    const { run, everyMs = 0 } = job;
    if (!run) continue;
    let waiting: NodeJS.Timeout | undefined;
    let wokenWhileRunning = false;
    // Whether the timer set starts a pass soon (a wake's, or again at once): further wakes join it.
    let woken = false;
    const pass = async () => {
      waiting = undefined;
      woken = false;
      if (backgroundJobsStopped()) return;
      let result: unknown;
      const noted: Pass = { job: job.name, start: performance.now() };
      keepLatest(state.passes, noted, KEPT_PASSES);
      try {
        // Requests first: on the embedded database each of the pass's statements waits for theirs.
        result = await inBackground(run);
      } catch (err) {
        // From shutdown on, the database closes under a pass still running: that pass ends, nothing failed.
        if (!backgroundJobsStopped()) console.error(`Background job ${job.name} failed; will retry.`, err);
      }
      noted.end = performance.now();
      const now = job.again?.(result) || wokenWhileRunning;
      wokenWhileRunning = false;
      waiting = setTimeout(() => void pass(), now ? 0 : everyMs).unref();
      woken = now;
    };
    job.wakeWith?.(() => {
      if (!waiting) wokenWhileRunning = true;
      else if (!woken) {
        clearTimeout(waiting);
        woken = true;
        waiting = setTimeout(() => void pass(), job.wakeDelayMs ?? 0).unref();
      }
    });
    void pass();
  }
}

/**
 * Called by the server's shutdown before it closes the database: no pass starts after this, and each job lets go
 * of what it holds.
 */
export async function stopBackgroundJobs(): Promise<void> {
  state.stopped = true;
  await Promise.all(
    state.jobs.map((job) =>
      job.release?.().catch((err: unknown) => console.error(`Background job ${job.name}: release failed.`, err)),
    ),
  );
}

/**
 * Whether shutdown has begun: a pass already running checks it before opening the database again. From SIGTERM on
 * (scripts/start.mjs sets `__svcShuttingDown`) nothing new is claimed: what is left is for the instances that stay.
 */
export function backgroundJobsStopped(): boolean {
  return state.stopped || (globalThis as { __svcShuttingDown?: boolean }).__svcShuttingDown === true;
}
