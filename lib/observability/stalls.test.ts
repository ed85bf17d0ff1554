import { describe, expect, it } from 'vitest';
import { noteLongStatement } from '../db/long-statements';
import { stallsBetween } from './stalls';

const state = (globalThis as unknown as { __svcStalls: { gc: { start: number; ms: number }[] } }).__svcStalls;

describe('stallsBetween', () => {
  it('sums only the parts of the GC pauses that fall within the request, old pauses not at all', () => {
    state.gc.splice(
      0,
      state.gc.length,
      { start: 0, ms: 50 },
      { start: 100, ms: 10 },
      { start: 195, ms: 10 },
      { start: 230, ms: 5 },
    );
    // 105..110 of the pause at 100, 195..200 of the one at 195; the pause at 230 began after the request ended.
    expect(stallsBetween(105, 200).gcMs).toBe(10);
    expect(stallsBetween(0, 1000).gcMs).toBe(75);
    expect(stallsBetween(60, 90).gcMs).toBe(0);
  });

  it('names the three longest statements that overlapped the request, longest first, and none that did not', () => {
    const from = performance.now();
    noteLongStatement('select before', 10_000); // began long before the request and ended within it
    for (const [statement, ms] of [
      ['select short', 0.0001],
      ['select longest', 0.003],
      ['select middle', 0.002],
      ['select longer', 0.0025],
    ] as const)
      noteLongStatement(statement, ms);
    const to = performance.now();
    noteLongStatement('select after', 0); // begins after the request ended
    const during = stallsBetween(from, to).database.map((s) => s.statement);
    expect(during).toEqual(['select before', 'select longest', 'select longer']);
  });
});
