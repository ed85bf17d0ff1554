import fc from 'fast-check';
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { describe, expect, it } from 'vitest';
import { consumeBatched, consumeOne } from './rate-limit';

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('consumeBatched', () => {
  it('allows exactly the first callers up to the limit, in arrival order, however they are batched', async () => {
    // Each burst is a number of callers arriving in one tick; a burst may overlap the call of the one before.
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 20 }),
        fc.array(fc.record({ callers: fc.integer({ min: 1, max: 8 }), wait: fc.boolean() }), { maxLength: 12 }),
        async (points, bursts) => {
          const consume = consumeBatched(new RateLimiterMemory({ points, duration: 60 }));
          const verdicts: Promise<number | null>[] = [];
          for (const burst of bursts) {
            for (let i = 0; i < burst.callers; i++) verdicts.push(consume('k').then((v) => v.retryAfter));
            if (burst.wait) await tick();
          }
          const answers = await Promise.all(verdicts);
          const allowed = Math.min(points, answers.length);
          expect(answers.slice(0, allowed)).toEqual(Array(allowed).fill(null));
          for (const refused of answers.slice(allowed)) expect(refused).toBeGreaterThanOrEqual(1);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('takes the points of callers that arrive together in one call', async () => {
    const limiter = new RateLimiterMemory({ points: 100, duration: 60 });
    const sizes: number[] = [];
    const consume = limiter.consume.bind(limiter);
    limiter.consume = (key, points, options) => {
      sizes.push(Number(points));
      return consume(key, points, options);
    };
    const batched = consumeBatched(limiter);
    await Promise.all(Array.from({ length: 5 }, () => batched('k')));
    expect(sizes).toEqual([5]);
  });

  it('refuses every caller of a key the store reports blocked (0 points counted), with its wait', async () => {
    const blocked = {
      points: 10,
      consume: () => Promise.reject(new RateLimiterRes(0, 4_500)),
    } as unknown as RateLimiterAbstract;
    const waits = await Promise.all([consumeBatched(blocked)('k'), consumeBatched(blocked)('k')]);
    expect(waits.map((v) => v.retryAfter)).toEqual([5, 5]);
    expect((await consumeOne(blocked)('k')).retryAfter).toBe(5);
  });

  it('passes a store failure to its callers', async () => {
    const failing = { points: 10, consume: () => Promise.reject(new Error('down')) } as unknown as RateLimiterAbstract;
    await expect(consumeBatched(failing)('k')).rejects.toThrow('down');
  });
});

describe('consumeOne', () => {
  it('allows up to the limit and then answers the seconds left in the window', async () => {
    const take = consumeOne(new RateLimiterMemory({ points: 2, duration: 30 }));
    const consume = async (key: string) => (await take(key)).retryAfter;
    expect([await consume('k'), await consume('k')]).toEqual([null, null]);
    const wait = await consume('k');
    expect(wait).toBeGreaterThanOrEqual(29);
    expect(wait).toBeLessThanOrEqual(30);
    expect(await consume('other')).toBeNull();
  });
});
