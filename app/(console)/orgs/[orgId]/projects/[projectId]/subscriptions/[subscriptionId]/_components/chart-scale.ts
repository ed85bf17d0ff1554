// The activity chart's numbers, without React.

/** The top of the chart's scale: the largest minute rounded up to 1, 2 or 5 times a power of ten (at least 5). */
export function scaleTop(largest: number): number {
  if (largest <= 5) return 5;
  const power = 10 ** Math.floor(Math.log10(largest));
  const step = [1, 2, 5, 10].find((m) => m * power >= largest) ?? 10;
  return step * power;
}

export type Minute = { at: string; delivered: number; failed: number; expired: number };

/** The hour's totals, for the legend and the chart's accessible name. */
export function totals(minutes: readonly Minute[]): { delivered: number; failed: number; expired: number } {
  return minutes.reduce(
    (sum, m) => ({
      delivered: sum.delivered + m.delivered,
      failed: sum.failed + m.failed,
      expired: sum.expired + m.expired,
    }),
    { delivered: 0, failed: 0, expired: 0 },
  );
}
