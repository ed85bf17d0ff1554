// `npm run bench:console`: Lighthouse (mobile preset, simulated slow 4G and CPU) on every console page,
// signed in as ada, against `npm start` on a fresh embedded database with the demo data. Needs `npm run build`.
import '../scripts/settings-first';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from '@playwright/test';
import { DEMO_PASSWORD } from '../server/demo/seed';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/chromium';
import { signIn, startConsole, stopConsole } from './server';

const GOALS = { performance: 95, accessibility: 100, scriptKb: 200 };
const RUNS = Math.max(1, Number(process.env.BENCH_CONSOLE_RUNS ?? 5));
const port = Number(process.env.BENCH_CONSOLE_PORT ?? 3450);
const base = `http://127.0.0.1:${port}`;
const CHROME_FLAGS = ['--headless=new', ...CHROMIUM_ARGS];

type Measured = {
  performance: number;
  accessibility: number;
  scriptKb: number;
  /** First and largest contentful paint and speed index (s), total blocking time (ms), layout shift: what the score is made of. */
  metrics: { fcp: number; lcp: number; si: number; tbt: number; cls: number };
  /** All the main thread's work during the load (ms, simulated): scripts, style and layout, parsing. */
  work: number;
  failing: string[];
  /** Lighthouse's measure of the machine's CPU speed during the run (higher is faster). */
  benchmarkIndex: number;
};

type Row = Measured & {
  page: string;
  /** The lowest and highest performance score of the page's runs. */
  spread?: [number, number];
};

/**
 * Ada signed in, in the browser's own cookie jar (through Playwright over the DevTools protocol), where the cookies
 * the pages set themselves (the chosen project) join it, as in anyone's browser: a Cookie header given to
 * Lighthouse was dropped once a page had set a cookie, and the next page went to sign-in. Returns her session
 * as a Cookie header, for the bench's own requests.
 */
async function signInBrowser(chromePort: number): Promise<string> {
  const { name, value } = await signIn(base, 'ada@acme.test', DEMO_PASSWORD);
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chromePort}`);
  await browser.contexts()[0].addCookies([{ name, value, url: base, httpOnly: true, sameSite: 'Lax' }]);
  await browser.close();
  return `${name}=${value}`;
}

async function demoIds(cookie: string) {
  const get = async (url: string) =>
    (
      (await (await fetch(`${base}${url}`, { headers: { cookie } })).json()) as {
        items: { id: string; name: string }[];
      }
    ).items;
  const acme = (await get('/v1/organizations')).find((o) => o.name === 'Acme')!.id;
  const production = (await get(`/v1/organizations/${acme}/projects`)).find((p) => p.name === 'Production')!.id;
  const scope = `/v1/organizations/${acme}/projects/${production}`;
  const orders = (await get(`${scope}/queues`)).find((q) => q.name === 'orders')!.id;
  const [subscription] = await get(`${scope}/subscriptions`);
  return { acme, production, orders, subscription: subscription.id };
}

async function measure(url: string, chromePort: number): Promise<Measured> {
  const result = await lighthouse(url, {
    port: chromePort,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility'],
  });
  if (!result) throw new Error(`no Lighthouse result for ${url}`);
  const { lhr } = result;
  if (lhr.finalDisplayedUrl.includes('/login')) throw new Error(`${url} redirected to sign-in`);
  const items = (
    lhr.audits['resource-summary'].details as unknown as { items: { resourceType: string; transferSize: number }[] }
  ).items;
  const script = items.find((i) => i.resourceType === 'script')?.transferSize ?? 0;
  // Only audits that count towards a score (bf-cache, for one, is informative: weight 0).
  const scored = new Set(
    Object.values(lhr.categories).flatMap((c) => c.auditRefs.filter((ref) => ref.weight > 0).map((ref) => ref.id)),
  );
  const failing = Object.values(lhr.audits)
    .filter((a) => scored.has(a.id) && a.scoreDisplayMode === 'binary' && a.score === 0)
    .map((a) => a.id);
  const value = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  if (process.env.BENCH_CONSOLE_DETAILS) {
    console.error(`  benchmarkIndex ${lhr.environment.benchmarkIndex}; warnings: ${JSON.stringify(lhr.runWarnings)}`);
    // What the browser saw, unthrottled, against which Lighthouse simulates the slow phone: a simulated largest paint
    // far after the first one while the observed ones coincide means scripts that started before it weigh on it.
    const observed = (lhr.audits.metrics?.details as { items?: Record<string, number>[] } | undefined)?.items?.[0];
    if (observed)
      console.error(
        `  observed (ms): first paint ${observed.observedFirstContentfulPaint}, largest ${observed.observedLargestContentfulPaint}, ` +
          `DOM loaded ${observed.observedDomContentLoaded}, load ${observed.observedLoad}`,
      );
    // Where the blocking time comes from: the long main-thread tasks and each script's execution time.
    // (Lighthouse's largest-contentful-paint-element fails in this Chromium: "RootCauses … frame_sequence".)
    for (const id of ['long-tasks', 'bootup-time', 'mainthread-work-breakdown', 'largest-contentful-paint-element']) {
      const details = lhr.audits[id]?.details as { items?: Record<string, unknown>[] } | undefined;
      const shown = JSON.stringify(details?.items?.slice(0, 8) ?? lhr.audits[id]?.displayValue) ?? 'not measured';
      console.error(`  ${id}: ${shown} ${lhr.audits[id]?.errorMessage ?? ''}`);
    }
  }
  return {
    performance: Math.round((lhr.categories.performance.score ?? 0) * 100),
    accessibility: Math.round((lhr.categories.accessibility.score ?? 0) * 100),
    scriptKb: Math.round(script / 1024),
    metrics: {
      fcp: value('first-contentful-paint') / 1000,
      lcp: value('largest-contentful-paint') / 1000,
      si: value('speed-index') / 1000,
      tbt: value('total-blocking-time'),
      cls: value('cumulative-layout-shift'),
    },
    work: value('mainthread-work-breakdown'),
    failing,
    benchmarkIndex: lhr.environment.benchmarkIndex,
  };
}

/**
 * The floor: `/unavailable`, a page rendered on the server with a single link, so its script is Next's router and
 * React alone. No console page can do better than it; measured in the same run, it tells what the machine allows.
 */
const FLOOR = 'Floor (Next and React alone)';

/** The API reference: Redoc's own script, the one page that says its own weight (docs/console.md), not 200 kB. */
const REFERENCE = 'API reference (its own weight)';

const loadBefore = os.loadavg()[0];
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-console-'));
const server = await startConsole(port, { DATA_DIR: dataDir, DATABASE_URL: '', SEED_DEMO: '1' });
const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROME_FLAGS });
const rows: Row[] = [];
let benchmarkIndex = NaN;
try {
  const cookie = await signInBrowser(chrome.port);
  const { acme, production, orders, subscription } = await demoIds(cookie);
  const pages: Record<string, string> = {
    [FLOOR]: '/unavailable',
    'Organization home': `/orgs/${acme}`,
    'API keys': `/orgs/${acme}/api-keys`,
    Members: `/orgs/${acme}/members`,
    Bots: `/orgs/${acme}/bots`,
    Subscriptions: `/orgs/${acme}/projects/${production}/subscriptions`,
    Queues: `/orgs/${acme}/projects/${production}/queues`,
    'A queue': `/orgs/${acme}/projects/${production}/queues/${orders}`,
    'A subscription': `/orgs/${acme}/projects/${production}/subscriptions/${subscription}`,
    Silences: `/orgs/${acme}/projects/${production}/silences`,
    'Audit log': `/orgs/${acme}/audit`,
    [REFERENCE]: '/api-reference',
  };
  // `BENCH_CONSOLE_PAGES=API keys,Members` measures only those pages (and the floor), while working on one.
  const only = process.env.BENCH_CONSOLE_PAGES?.split(',').map((name) => name.trim());
  const chosen = Object.entries(pages).filter(([page]) => page === FLOOR || !only || only.includes(page));
  // Lighthouse's own advice for a score that moves between runs: report the median of several. The runs go in
  // rounds over every page, so a busy minute of the machine falls on all of them alike.
  const runs = new Map<string, Measured[]>(chosen.map(([page]) => [page, []]));
  for (let round = 0; round < RUNS; round++) {
    for (const [page, url] of chosen) runs.get(page)!.push(await measure(`${base}${url}`, chrome.port));
  }
  for (const [page, measured] of runs) {
    measured.sort((a, b) => a.performance - b.performance);
    rows.push({
      page,
      ...measured[Math.floor(measured.length / 2)],
      spread: [measured[0].performance, measured.at(-1)!.performance],
    });
    console.error(`measured ${page}: ${measured.map((r) => r.performance).join(', ')}`);
  }
  const indexes = [...runs.values()]
    .flat()
    .map((r) => r.benchmarkIndex)
    .sort((a, b) => a - b);
  benchmarkIndex = indexes[Math.floor(indexes.length / 2)];
} finally {
  chrome.kill();
  await stopConsole(server);
  rmSync(dataDir, { recursive: true, force: true });
}

const floor = rows.find((r) => r.page === FLOOR)!;
console.log(
  `| page | performance (median of ${RUNS}; lowest-highest) | accessibility | script kB (transferred) | FCP s | LCP s | SI s | TBT ms | CLS | main-thread work ms (against the floor) |`,
);
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  const m = r.metrics;
  console.log(
    `| ${r.page} | ${r.performance}${r.spread ? ` (${r.spread[0]}-${r.spread[1]})` : ''} | ${r.accessibility} | ${r.scriptKb} | ${m.fcp.toFixed(1)} | ${m.lcp.toFixed(1)} | ${m.si.toFixed(1)} | ${Math.round(m.tbt)} | ${m.cls.toFixed(3)} | ${Math.round(r.work)} (${(r.work / floor.work).toFixed(2)}x) |`,
  );
}
// Lighthouse simulates a slow phone from the CPU time it observes: on a busy or slower machine the score drops,
// the floor's with the rest.
console.log(
  `\n${new Date().toISOString()}: load average ${loadBefore.toFixed(1)} before, ${os.loadavg()[0].toFixed(1)} after, on ${os.cpus().length} cores; Lighthouse's benchmark index ${Math.round(benchmarkIndex)} (median)`,
);
const missed = rows.filter(
  (r) =>
    r.page !== FLOOR &&
    (r.accessibility < GOALS.accessibility ||
      (r.page !== REFERENCE && (r.performance < GOALS.performance || r.scriptKb > GOALS.scriptKb))),
);
for (const r of missed) console.log(`\n${r.page} misses a goal; failing audits: ${r.failing.join(', ') || 'none'}`);
if (floor.performance < GOALS.performance) {
  console.log(
    `\nThe floor itself scores ${floor.performance}: on this machine no page of the console can reach ${GOALS.performance}.`,
  );
}
process.exitCode = missed.length > 0 ? 1 : 0;
