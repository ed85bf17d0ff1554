/**
 * Summarizes `node --cpu-prof` profiles (from `BENCH_CPU_PROF=<dir> npm run bench`): busy CPU by where the
 * code lives (PGlite, pg, Next, drizzle, zod, Node internals, the app) and the functions with the most self time.
 * With a third argument, also the functions with the most total time (self and callees) whose frame
 * matches it (`.next/server` for the app's own code, unminified when built with serverMinification off).
 * When the directory holds the bench's `windows.json` (when each measurement ran), it also prints, per route,
 * the main thread's busy microseconds per request by function next to the floor's, largest difference first:
 * what a route costs over the floor, and where.
 * usage: tsx bench/profile.ts <dir or .cpuprofile file> [top=25] [total-time filter]
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

type Frame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type Node = { id: number; callFrame: Frame; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number };
type Window = { name: string; start: number; end: number; requests: number };

const IDLE = new Set(['(idle)', '(program)']);

/** Where a frame's code lives; bundled server chunks hold the app with the packages Next bundles into it. */
function area(url: string, name: string): string {
  if (name === '(garbage collector)') return 'garbage collector';
  if (url === '') return 'native / builtins';
  if (url.startsWith('node:')) return 'Node internals';
  if (url.startsWith('wasm://')) return '@electric-sql/pglite (WASM)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1] === 'next' ? 'Next' : pkg[1];
  if (url.includes('/.next/server/')) return 'server bundle (app, drizzle, zod, …)';
  return 'other';
}

function load(file: string) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  return { profile, byId, parent, self };
}

type Loaded = ReturnType<typeof load>;

type Costs = { busy: number; areas: Map<string, number>; functions: Map<string, number> };

/**
 * Busy µs of the main thread per request, by area and function, per measurement name: every window of that
 * name together, across the run's servers (profile one database at a time, with BENCH_DATABASES).
 */
function perRequest(profiles: Loaded[], windows: Window[]): Map<string, Costs> {
  const sorted = windows.filter((w) => w.name !== 'warm-up').sort((a, b) => a.start - b.start);
  const requests = new Map<string, number>();
  for (const w of sorted) requests.set(w.name, (requests.get(w.name) ?? 0) + w.requests);
  const out = new Map<string, Costs>();
  for (const { profile, byId } of profiles) {
    let at = profile.startTime;
    let w = 0;
    profile.samples.forEach((id, i) => {
      const micros = profile.timeDeltas[i] ?? 0;
      at += micros;
      while (w < sorted.length && sorted[w].end < at) w++;
      const window = sorted[w];
      if (!window || at < window.start) return;
      const frame = byId.get(id)!.callFrame;
      if (IDLE.has(frame.functionName)) return;
      const share = micros / requests.get(window.name)!;
      const entry = out.get(window.name) ?? {
        busy: 0,
        areas: new Map<string, number>(),
        functions: new Map<string, number>(),
      };
      out.set(window.name, entry);
      entry.busy += share;
      const where = area(frame.url, frame.functionName);
      entry.areas.set(where, (entry.areas.get(where) ?? 0) + share);
      const key = frameKey(frame);
      entry.functions.set(key, (entry.functions.get(key) ?? 0) + share);
    });
  }
  return out;
}

/** Rows of a route's cost, the floor's and the difference, largest difference first. */
function printDifference(
  route: Map<string, number>,
  floor: Map<string, number>,
  top: number,
  label: (k: string) => string,
) {
  const rows = [...new Set([...route.keys(), ...floor.keys()])].map((k) => {
    const [r, f] = [route.get(k) ?? 0, floor.get(k) ?? 0];
    return { k, r, f, d: r - f };
  });
  for (const { k, r, f, d } of rows.sort((a, b) => b.d - a.d).slice(0, top))
    console.log(`${r.toFixed(1).padStart(7)} ${f.toFixed(1).padStart(7)} ${d.toFixed(1).padStart(7)}  ${label(k)}`);
}

function printDifferences(profiles: Loaded[], windows: Window[], top: number) {
  const costs = perRequest(profiles, windows);
  const floor = [...costs].find(([name]) => name.includes('(floor)'))?.[1];
  if (!floor) return;
  for (const [name, route] of costs) {
    if (route === floor) continue;
    console.log(
      `\n${name}: ${route.busy.toFixed(0)} µs of the main thread per request, the floor ${floor.busy.toFixed(0)}; by function (route, floor, difference):`,
    );
    printDifference(route.areas, floor.areas, Infinity, (where) => `[${where}]`);
    printDifference(route.functions, floor.functions, top, (key) => key);
  }
}

/** A frame by name and place; in the minified server bundle, where a line holds many functions, with its column. */
function frameKey({ functionName, url, lineNumber, columnNumber }: Frame): string {
  const where = url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/\.next\//, '.next/');
  const column = where.startsWith('.next/') ? `:${columnNumber + 1}` : '';
  return `${functionName || '(anonymous)'}  ${where}:${lineNumber + 1}${column}`;
}

function main() {
  const target = process.argv[2];
  if (!target) throw new Error('usage: tsx bench/profile.ts <dir or file> [top]');
  const top = Number(process.argv[3] ?? 25);
  const files = statSync(target).isDirectory()
    ? readdirSync(target)
        .filter((f) => f.endsWith('.cpuprofile'))
        .map((f) => path.join(target, f))
    : [target];
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  const totals = new Map<string, number>();
  const totalFilter = process.argv[4];
  let busy = 0;
  // Each profile parsed once: they run to tens of megabytes, and the per-route differences read them again.
  const profiles = files.map(load);
  for (const { byId, parent, self } of profiles) {
    for (const [id, micros] of self) {
      const frame = byId.get(id)!.callFrame;
      const { functionName, url } = frame;
      if (IDLE.has(functionName)) continue;
      busy += micros;
      const where = area(url, functionName);
      areas.set(where, (areas.get(where) ?? 0) + micros);
      const key = frameKey(frame);
      functions.set(key, (functions.get(key) ?? 0) + micros);
      if (!totalFilter) continue;
      // Each function once per stack, however often it recurses.
      const onStack = new Set<string>();
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const frame = byId.get(at)!.callFrame;
        if (frame.url.includes(totalFilter)) onStack.add(frameKey(frame));
      }
      for (const k of onStack) totals.set(k, (totals.get(k) ?? 0) + micros);
    }
  }
  const pct = (micros: number) => `${((100 * micros) / busy).toFixed(1).padStart(5)} %`;
  console.log(`${files.length} profile(s), ${(busy / 1e6).toFixed(1)} s of busy CPU (idle excluded)\n`);
  for (const [where, micros] of [...areas].sort((a, b) => b[1] - a[1])) console.log(`${pct(micros)}  ${where}`);
  console.log(`\nTop ${top} functions by self time:`);
  for (const [key, micros] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${pct(micros)}  ${key}`);
  const windowsFile = statSync(target).isDirectory() ? path.join(target, 'windows.json') : null;
  if (windowsFile && existsSync(windowsFile))
    printDifferences(profiles, JSON.parse(readFileSync(windowsFile, 'utf8')) as Window[], top);
  if (!totalFilter) return;
  console.log(`\nTop ${top} functions matching ${totalFilter} by total time:`);
  for (const [key, micros] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${pct(micros)}  ${key}`);
}

main();
