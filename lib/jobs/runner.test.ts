import { afterEach, describe, expect, it, vi } from 'vitest';
import { backgroundJobsStopped, startBackgroundJobs, stopBackgroundJobs, type BackgroundJob } from './runner';

afterEach(() => {
  vi.useRealTimers();
});

describe('background jobs', () => {
  it('runs a pass at start, then after each wait, never two passes of one job at once; a full batch goes again at once', async () => {
    vi.useFakeTimers();
    let running = 0;
    let overlapped = false;
    const passes: number[] = [];
    const job: BackgroundJob = {
      name: 'test-batches',
      everyMs: 1000,
      // The first two passes find a full batch, then nothing is due.
      run: async () => {
        running++;
        overlapped ||= running > 1;
        await new Promise((r) => setTimeout(r, 1500));
        running--;
        passes.push(Date.now());
        return passes.length <= 2 ? 20 : 0;
      },
      again: (found) => found === 20,
    };
    const start = Date.now();
    startBackgroundJobs([job, job]);
    await vi.advanceTimersByTimeAsync(1500 * 3 + 1000 + 1500 + 10);
    expect(overlapped).toBe(false);
    // Three back to back (two full batches: the next starts within a tick), then a wait before the fourth.
    const gaps = passes.map((at, i) => at - (i === 0 ? start : passes[i - 1]) - 1500);
    expect(gaps.map((gap) => (gap < 5 ? 'at once' : gap >= 1000 ? 'waited' : gap))).toEqual([
      'at once',
      'at once',
      'at once',
      'waited',
    ]);
  });

  it('a wake starts a pass after wakeDelayMs instead of the wait, and the wakes of that moment share it', async () => {
    vi.useFakeTimers();
    const passes: number[] = [];
    let wake = () => {};
    startBackgroundJobs([
      {
        name: 'test-woken',
        everyMs: 10_000,
        wakeDelayMs: 5,
        run: async () => passes.push(Date.now()),
        wakeWith: (w) => (wake = w),
      },
    ]);
    await vi.advanceTimersByTimeAsync(1);
    expect(passes).toHaveLength(1);
    const woken = Date.now();
    for (let i = 0; i < 10; i++) wake();
    await vi.advanceTimersByTimeAsync(4);
    expect(passes).toHaveLength(1);
    wake();
    await vi.advanceTimersByTimeAsync(2);
    expect(passes.map((at) => at - woken).slice(1)).toEqual([5]);
    // The wait after it is the job's own again.
    await vi.advanceTimersByTimeAsync(9_000);
    expect(passes).toHaveLength(2);
  });

  it('skips a disabled job, stops starting passes at shutdown and releases what each job holds', async () => {
    vi.useFakeTimers();
    const runs: string[] = [];
    const released: string[] = [];
    startBackgroundJobs([
      { name: 'test-disabled', everyMs: 10, run: async () => runs.push('disabled'), enabled: () => false },
      {
        name: 'test-releasing',
        everyMs: 10,
        run: async () => runs.push('releasing'),
        release: async () => {
          released.push('releasing');
        },
      },
    ]);
    await vi.advanceTimersByTimeAsync(25);
    expect(runs).not.toContain('disabled');
    const before = runs.length;
    expect(before).toBeGreaterThan(0);
    await stopBackgroundJobs();
    expect(backgroundJobsStopped()).toBe(true);
    expect(released).toEqual(['releasing']);
    await vi.advanceTimersByTimeAsync(100);
    expect(runs.length).toBe(before);
  });
});
