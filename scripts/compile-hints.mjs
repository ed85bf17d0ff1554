// `npm run build`'s last step: marks every browser chunk of the build with V8's explicit compile hint, so Chromium
// compiles its functions while the script streams in, on a background thread, instead of on the page's main thread
// the first time each is called.
//
// Why: Turbopack's chunks hold each module as a function that V8 compiles lazily, so starting a page (React, Next's
// router, the console's modules) compiled them one by one on the main thread, in the task that hydrates the page:
// measured with Lighthouse's mobile preset, that task was most of a page's total blocking time, even on a page
// with nothing but Next and React (docs/benchmarks-console.md). Browsers
// without the hint ignore the comment. Idempotent: a chunk already marked is left as it is.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';
const dir = path.join(process.cwd(), '.next', 'static', 'chunks');

let marked = 0;
for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
  const file = path.join(entry.parentPath, entry.name);
  const text = await readFile(file, 'utf8');
  if (text.startsWith(COMPILE_HINT)) continue;
  await writeFile(file, COMPILE_HINT + text);
  marked++;
}
console.log(`compile hints: ${marked} browser chunks marked in ${path.relative(process.cwd(), dir)}`);
