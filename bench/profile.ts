/**
 * Summarizes `node --cpu-prof` profiles (from `BENCH_CPU_PROF=<dir> npm run bench`): busy CPU by where the
 * code lives (PGlite, pg, Next, drizzle, zod, Node internals, the app) and the functions with the most self time.
 * usage: tsx bench/profile.ts <dir or .cpuprofile file> [top=25]
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
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  return { byId, self };
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
  let busy = 0;
  for (const file of files) {
    const { byId, self } = load(file);
    for (const [id, micros] of self) {
      const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
      if (IDLE.has(functionName)) continue;
      busy += micros;
      const where = area(url, functionName);
      areas.set(where, (areas.get(where) ?? 0) + micros);
      const key = `${functionName || '(anonymous)'}  ${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/\.next\//, '.next/')}:${lineNumber + 1}`;
      functions.set(key, (functions.get(key) ?? 0) + micros);
    }
  }
  const pct = (micros: number) => `${((100 * micros) / busy).toFixed(1).padStart(5)} %`;
  console.log(`${files.length} profile(s), ${(busy / 1e6).toFixed(1)} s of busy CPU (idle excluded)\n`);
  for (const [where, micros] of [...areas].sort((a, b) => b[1] - a[1])) console.log(`${pct(micros)}  ${where}`);
  console.log(`\nTop ${top} functions by self time:`);
  for (const [key, micros] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${pct(micros)}  ${key}`);
}

main();
