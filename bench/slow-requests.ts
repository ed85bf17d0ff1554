import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Stalls } from '../lib/observability/stalls';

type Line = { msg?: string; route?: string; method?: string; durationMs?: number; during?: Stalls };
type Tally = {
  count: number;
  durations: number[];
  gc: number;
  loop: number;
  background: Map<string, number>;
  db: Map<string, number>;
};

/**
 * What the server's "slow request" lines (SLOW_REQUEST_MS, lib/http/request.ts) say was going on during the slow
 * requests of a bench run, per route: how many, how many overlapped a GC pause, a held event loop, a background
 * pass (which), a long statement (which; the longest of each request): on the embedded database one that held its
 * backend, on PostgreSQL a round trip of 10 ms or more, or a wait for a pooled connection.
 */
export async function printSlowRequests(logFile: string, thresholdMs: number): Promise<void> {
  const byRoute = new Map<string, Tally>();
  const lines = createInterface({ input: createReadStream(logFile), crlfDelay: Infinity });
  for await (const text of lines) {
    if (!text.includes('"slow request"')) continue;
    let line: Line;
    try {
      line = JSON.parse(text) as Line;
    } catch {
      continue;
    }
    const during = line.during;
    if (!during) continue;
    const name = `${line.method} ${line.route}`;
    const tally: Tally = byRoute.get(name) ?? {
      count: 0,
      durations: [] as number[],
      gc: 0,
      loop: 0,
      background: new Map(),
      db: new Map(),
    };
    byRoute.set(name, tally);
    tally.count++;
    tally.durations.push(line.durationMs ?? 0);
    if (during.gcMs > 0) tally.gc++;
    if (during.loopHeldMs > 0) tally.loop++;
    for (const job of during.background) tally.background.set(job, (tally.background.get(job) ?? 0) + 1);
    for (const s of during.database.slice(0, 1)) {
      const what = s.statement.slice(0, 40);
      tally.db.set(what, (tally.db.get(what) ?? 0) + 1);
    }
  }
  console.log(
    `\nRequests that took ≥ ${thresholdMs} ms, and what overlapped them (the server's "slow request" lines):`,
  );
  if (byRoute.size === 0) return console.log('  none');
  const top = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 2)
      .map(([k, n]) => `${k} (${n})`)
      .join(', ') || '-';
  for (const [name, t] of [...byRoute].sort((a, b) => b[1].count - a[1].count)) {
    const sorted = t.durations.sort((a, b) => a - b);
    console.log(
      `  ${name.slice(-70)}: ${t.count}, median ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms, max ${sorted[sorted.length - 1].toFixed(0)} ms; GC ${t.gc}, loop held ${t.loop}; background: ${top(t.background)}; long statements: ${top(t.db)}`,
    );
  }
}
