/** The benchmark's tables: each route beside its own floor measurement, and the goals with met/missed. */

export type Figure = {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  /** CPU milliseconds per request of the app's process tree; of the database backends (PostgreSQL only). */
  appMs: number | null;
  dbMs: number | null;
};
/**
 * A route and the floor measured in turns with it; `goal` is the least ratio to that floor, null for none;
 * `p99Limit` the most its p99 may be of the floor's (P99_LIMIT when not given).
 */
export type Pair = { floor: Figure; route: Figure; goal: number | null; p99Limit?: number };

/** The route's p99 may be at most this many times the floor's. */
export const P99_LIMIT = 3;

export const ratio = (pair: Pair) => pair.route.rps / pair.floor.rps;
export const p99Ratio = (pair: Pair) => pair.route.p99 / Math.max(pair.floor.p99, 1);

const ms = (value: number | null) => (value === null ? '-' : value.toFixed(2));

function line(cells: [string, number][]): string {
  return cells.map(([text, width]) => (width < 0 ? text.padEnd(-width) : text.padStart(width))).join(' ');
}

function row(f: Figure, r: string, p99r: string): string {
  return line([
    [`  ${f.name}`, -46],
    [f.rps.toFixed(0), 7],
    [r, 6],
    [f.p50.toFixed(1), 7],
    [f.p99.toFixed(1), 7],
    [p99r, 8],
    [f.max.toFixed(0), 7],
    [ms(f.appMs), 9],
    [ms(f.dbMs), 8],
  ]);
}

export function printRun(label: string, pairs: Pair[]): void {
  if (pairs.length === 0) return;
  console.log(`\n${label}: ratio = route req/s ÷ the floor's, measured in turns with it`);
  console.log(
    line([
      ['route', -46],
      ['req/s', 7],
      ['ratio', 6],
      ['p50 ms', 7],
      ['p99 ms', 7],
      ['p99/fl', 8],
      ['max ms', 7],
      ['app ms/r', 9],
      ['db ms/r', 8],
    ]),
  );
  for (const pair of pairs) {
    console.log(row(pair.floor, '', ''));
    console.log(row(pair.route, ratio(pair).toFixed(2), `${p99Ratio(pair).toFixed(2)}×`));
  }
}

/** Every goal per database: a route measured in several rounds shows its range, met only if every round met it. */
export function printGoals(results: { label: string; pairs: Pair[] }[]): void {
  const names = [...new Set(results.flatMap((r) => r.pairs.filter((p) => p.goal !== null).map((p) => p.route.name)))];
  if (names.length === 0) return;
  console.log(
    '\nGoals (ratios to the floor, or the route named, in one run; p99 at most 3 × the floor p99 unless said)',
  );
  console.log(line([['goal', -58], ...results.map((r): [string, number] => [r.label, 24])]));
  const range = (values: number[], digits: number) => {
    const lo = Math.min(...values).toFixed(digits);
    const hi = Math.max(...values).toFixed(digits);
    return lo === hi ? lo : `${lo}-${hi}`;
  };
  for (const name of names) {
    const first = results.flatMap((r) => r.pairs).find((p) => p.route.name === name)!;
    const goal = first.goal!;
    const limit = first.p99Limit ?? P99_LIMIT;
    // A route compared with another route than the floor says which (the alert routes': the key list).
    const of = first.floor.name.startsWith(`GET /v1/health/live`) ? 'floor' : first.floor.name.replace(' (floor)', '');
    const cell = (pairs: Pair[], value: (p: Pair) => number, met: (v: number) => boolean, suffix = '') => {
      const values = pairs.filter((p) => p.route.name === name).map(value);
      if (values.length === 0) return '-';
      return `${range(values, 2)}${suffix} ${values.every(met) ? 'met' : 'missed'}`;
    };
    console.log(
      line([
        [`${name}: ratio ≥ ${goal}${of === 'floor' ? '' : ` of ${of}`}`, -58],
        ...results.map((r): [string, number] => [cell(r.pairs, ratio, (v) => v >= goal), 24]),
      ]),
    );
    console.log(
      line([
        [`${name}: p99 ≤ ${limit} × ${of === 'floor' ? 'floor' : 'its p99'}`, -58],
        ...results.map((r): [string, number] => [cell(r.pairs, p99Ratio, (v) => v <= limit, '×'), 24]),
      ]),
    );
  }
}
