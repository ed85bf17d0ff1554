/**
 * Time to interactive of console pages, for `npm run bench:scale`: the built app is started on the seeded database,
 * a user signs in through next-auth's credentials callback, and Debian's Chromium loads each page until its list
 * shows rows. The lists are fetched by the browser after hydration (react-query), so rows on screen mean the page
 * has run its script and answers input. Each page is timed against the same page of a small organization in the
 * same run, in turns, so the ratio says what the big organization costs and the machine's speed cancels.
 */
import { performance } from 'node:perf_hooks';
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/chromium';
import { signIn, startConsole, stopConsole } from './server';

export type ConsolePage = { name: string; big: string; small: string };

/** Milliseconds from asking for `url` to the first row of its list on screen. */
async function timeToRows(page: Page, url: string): Promise<number> {
  const start = performance.now();
  await page.goto(url, { waitUntil: 'commit' });
  await page.locator('table tbody tr').first().waitFor({ state: 'visible', timeout: 60_000 });
  return performance.now() - start;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Per page, the median time to rows of the big and the small organization's page (`runs` loads each, in turns). */
export async function timeConsolePages(options: {
  port: number;
  env: Record<string, string>;
  email: string;
  password: string;
  pages: ConsolePage[];
  runs: number;
}): Promise<{ name: string; big: number; small: number }[]> {
  const base = `http://127.0.0.1:${options.port}`;
  const server = await startConsole(options.port, options.env);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const cookie = await signIn(base, options.email, options.password);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ ...cookie, url: base }]);
    const page = await context.newPage();
    const results = [];
    for (const p of options.pages) {
      // Unmeasured loads first: the server compiles nothing, but its caches and the browser's warm.
      await timeToRows(page, base + p.big);
      await timeToRows(page, base + p.small);
      const big: number[] = [];
      const small: number[] = [];
      for (let i = 0; i < options.runs; i++) {
        big.push(await timeToRows(page, base + p.big));
        small.push(await timeToRows(page, base + p.small));
      }
      results.push({ name: p.name, big: median(big), small: median(small) });
    }
    return results;
  } finally {
    await browser.close();
    await stopConsole(server);
  }
}
