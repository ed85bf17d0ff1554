/**
 * Summarizes `node --cpu-prof` profiles (from `BENCH_CPU_PROF=<dir> npm run bench`): busy CPU by where the
 * code lives (PGlite, pg, Next, drizzle, zod, Node internals, the app) and the functions with the most self time.
 * With a third argument, also the functions with the most total time (self and callees) whose frame
 * matches it (`.next/server` for the app's own code, unminified when built with serverMinification off).
 * usage: tsx bench/profile.ts <dir or .cpuprofile file> [top=25] [total-time filter]
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

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
  return { byId, parent, self };
}

function frameKey({ functionName, url, lineNumber }: Node['callFrame']): string {
  const where = url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/\.next\//, '.next/');
  return `${functionName || '(anonymous)'}  ${where}:${lineNumber + 1}`;
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
  for (const file of files) {
    const { byId, parent, self } = load(file);
    for (const [id, micros] of self) {
      const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
      if (IDLE.has(functionName)) continue;
      busy += micros;
      const where = area(url, functionName);
      areas.set(where, (areas.get(where) ?? 0) + micros);
      const key = frameKey({ functionName, url, lineNumber });
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
  if (!totalFilter) return;
  console.log(`\nTop ${top} functions matching ${totalFilter} by total time:`);
  for (const [key, micros] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${pct(micros)}  ${key}`);
}

main();
