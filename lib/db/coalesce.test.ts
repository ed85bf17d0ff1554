import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Coalescer } from './coalesce';

type Deferred = { resolve: (v: string) => void; reject: (e: unknown) => void };

/** A coalescer whose calls wait until the test settles them, with a log of each call's key and size. */
function controlled() {
  const calls: { key: string; callers: number; settle: Deferred }[] = [];
  const coalescer = new Coalescer<string, string>(
    (key, callers) =>
      new Promise<string>((resolve, reject) => calls.push({ key, callers, settle: { resolve, reject } })),
  );
  return { coalescer, calls };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('Coalescer', () => {
  it('runs a lone caller in a call of its own', async () => {
    const { coalescer, calls } = controlled();
    const share = coalescer.join('k');
    await tick();
    expect(calls.map((c) => c.callers)).toEqual([1]);
    calls[0].settle.resolve('r');
    expect(await share).toEqual({ result: 'r', index: 0, callers: 1 });
  });

  it('lets callers of one tick share a call, and makes later callers wait for the next one', async () => {
    const { coalescer, calls } = controlled();
    const first = [coalescer.join('k'), coalescer.join('k')];
    await tick();
    const later = [coalescer.join('k'), coalescer.join('k'), coalescer.join('k')];
    await tick();
    // The later callers arrived after the first call started: they must not take its answer.
    expect(calls.map((c) => c.callers)).toEqual([2]);
    calls[0].settle.resolve('one');
    await tick();
    expect(calls.map((c) => c.callers)).toEqual([2, 3]);
    calls[1].settle.resolve('two');
    expect(await Promise.all(first)).toEqual([
      { result: 'one', index: 0, callers: 2 },
      { result: 'one', index: 1, callers: 2 },
    ]);
    expect((await Promise.all(later)).map((s) => [s.result, s.index, s.callers])).toEqual([
      ['two', 0, 3],
      ['two', 1, 3],
      ['two', 2, 3],
    ]);
  });

  it('gives a failure to every caller of its call, and still serves the callers after it', async () => {
    const { coalescer, calls } = controlled();
    const failed = [coalescer.join('k'), coalescer.join('k')];
    await tick();
    const after = coalescer.join('k');
    calls[0].settle.reject(new Error('down'));
    for (const share of failed) await expect(share).rejects.toThrow('down');
    await tick();
    calls[1].settle.resolve('up');
    expect((await after).result).toBe('up');
  });

  it('runs different keys independently', async () => {
    const { coalescer, calls } = controlled();
    const a = coalescer.join('a');
    const b = coalescer.join('b');
    await tick();
    expect(calls.map((c) => [c.key, c.callers])).toEqual([
      ['a', 1],
      ['b', 1],
    ]);
    calls[1].settle.resolve('B');
    expect((await b).result).toBe('B');
    calls[0].settle.resolve('A');
    expect((await a).result).toBe('A');
  });

  it('a throw from the call itself reaches its callers', async () => {
    const coalescer = new Coalescer<string, string>(() => {
      throw new Error('sync');
    });
    await expect(coalescer.join('k')).rejects.toThrow('sync');
    await expect(coalescer.join('k')).rejects.toThrow('sync');
  });

  it('answers every caller from a call that started after it joined, one call at a time per key', async () => {
    // Any interleaving of joins and call completions: a caller's answer names a call started after the
    // caller joined (what makes a shared read as fresh as the caller's own), and calls of a key never overlap.
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom('join', 'settle', 'tick'), { maxLength: 60 }), async (steps) => {
        let clock = 0;
        let running = 0;
        const pending: (() => void)[] = [];
        const coalescer = new Coalescer<string, number>(async () => {
          const startedAt = ++clock;
          running++;
          expect(running).toBe(1);
          await new Promise<void>((resolve) => pending.push(resolve));
          running--;
          return startedAt;
        });
        const joined: { at: number; share: Promise<{ result: number }> }[] = [];
        for (const step of steps) {
          if (step === 'join') joined.push({ at: ++clock, share: coalescer.join('k') });
          else if (step === 'settle') pending.shift()?.();
          else await tick();
        }
        // Drain: after a macrotask every launched call has pushed its settler, so none left means all done.
        for (;;) {
          await tick();
          const settle = pending.shift();
          if (!settle) break;
          settle();
        }
        const shares = await Promise.all(joined.map((j) => j.share));
        shares.forEach((share, i) => expect(share.result).toBeGreaterThan(joined[i].at));
      }),
      { numRuns: 200 },
    );
  });
});
