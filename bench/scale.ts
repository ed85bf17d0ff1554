/**
 * `npm run bench:scale`: one organization at a big organization's size (the sizes below), seeded straight into the
 * database (server/demo/bulk-seed.ts, a correct audit chain), then each list, filter, search, the export and the
 * verification timed in-process (the services the route handlers call: what a request costs beyond the framework's
 * floor, which `npm run bench` measures). Prints a Markdown table and writes it into docs/big-organizations.md between its markers.
 *
 * Last, the built app (run `npm run build` first) serves the console's keys and silences pages of that organization
 * and of one with 50 of each to Debian's Chromium (bench/console-pages.ts), on BENCH_SCALE_PORT (3470).
 *
 * Environment: DATABASE_URL (PostgreSQL; else a fresh embedded database in a temporary folder), SCALE_KEYS (100000),
 * SCALE_SILENCES (100000, all but 10 expired), SCALE_AUDIT (1000000), SCALE_RUNS (30: timings are medians; a search
 * and its first page at least 60 each, in turns).
 * The npm script sets DATABASE_QUERY_TIMEOUT_MS=0: seeding and ANALYZE of a million rows outlast the app's 4 s.
 */
import '../scripts/settings-first';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { listApiKeys } from '../lib/api-keys/list-service';
import { hashPassword } from '../lib/auth/password';
import { exportStream } from '../lib/audit/export-format';
import { recordAuditEvent } from '../lib/audit/record';
import { auditEventBatches, listAuditEvents } from '../lib/audit/service';
import { SYSTEM_ACTOR } from '../lib/audit/source';
import { getAuditVerification, startAuditVerification } from '../lib/audit/verification-service';
import { verifyAuditChain, verifyChainInDetail } from '../lib/audit/verify';
import { analyzeSeeded, bulkAppendAuditEvents, bulkInsertApiKeys, bulkInsertSilences } from '../server/demo/bulk-seed';
import { closeDb, getDb } from '../lib/db/client';
import * as t from '../lib/db/schema';
import { insertScratchProject } from '../lib/db/scratch-project';
import { encodeCursor } from '../lib/http/pagination';
import { countSilences, listSilences } from '../lib/silences/list-service';
import { timeConsolePages } from './console-pages';

const KEYS = Number(process.env.SCALE_KEYS ?? 100_000);
const SILENCES = Number(process.env.SCALE_SILENCES ?? 100_000);
const AUDIT = Number(process.env.SCALE_AUDIT ?? 1_000_000);
const RUNS = Number(process.env.SCALE_RUNS ?? 30);
// A search and a first page take a millisecond or two: more runs of each, for a steadier ratio.
const SEARCH_RUNS = Math.max(RUNS, 60);
const kind = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
const dataDir = process.env.DATABASE_URL ? null : mkdtempSync(path.join(os.tmpdir(), 'svc-scale-'));
if (dataDir) process.env.DATA_DIR = dataDir;
process.env.SEED_DEMO = '0';

const rows: [string, string][] = [];
const note = (what: string, figure: string) => {
  rows.push([what, figure]);
  console.log(`${what}: ${figure}`);
};
const ms = (n: number) => `${n < 10 ? n.toFixed(2) : n.toFixed(0)} ms`;

/** The median time of `RUNS` calls, after two unmeasured ones (plans and caches warm). */
async function median(action: () => Promise<unknown>): Promise<number> {
  await action();
  await action();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await action();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

/**
 * The medians of `SEARCH_RUNS` calls of each action, the calls in turns (a, b, a, b…) after six unmeasured rounds:
 * a ratio of the two then compares the same moments of the machine, whose speed moves by the minute. The first
 * five runs of a named statement on a connection are planned for their values (PostgreSQL's rule, PGlite's too);
 * from the sixth it keeps one plan, as a server does for all but its first searches.
 */
async function mediansInTurns(a: () => Promise<unknown>, b: () => Promise<unknown>): Promise<[number, number]> {
  const times: [number[], number[]] = [[], []];
  for (let i = -6; i < SEARCH_RUNS; i++)
    for (const [k, action] of [a, b].entries()) {
      const start = performance.now();
      await action();
      if (i >= 0) times[k].push(performance.now() - start);
    }
  const mid = (list: number[]) => list.sort((x, y) => x - y)[Math.floor(list.length / 2)];
  return [mid(times[0]), mid(times[1])];
}

async function timed<T>(action: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await action();
  return [value, performance.now() - start];
}

/**
 * Each search as a ratio of its rate to the unfiltered first page's, the two measured in turns: a search with one
 * match must run at 0.5x or better; the others are shown for what they cost.
 */
async function timeSearches(phase: string) {
  const [leaked] = (await listApiKeys(scope.organizationId, null, { limit: 1, q: 'leaked deploy' })).items;
  const keysFirstPage = () => listApiKeys(scope.organizationId, null, { limit: 50 });
  const silencesFirstPage = () => listSilences(scope, { limit: 50 });
  const keysFirst = await median(keysFirstPage);
  const silencesFirst = await median(silencesFirstPage);
  note(`${phase}: keys, silences: first page`, `${ms(keysFirst)}, ${ms(silencesFirst)}`);
  const searches: [string, string, () => Promise<unknown>, () => Promise<unknown>][] = [
    [
      'keys',
      'one match, a part of its name',
      keysFirstPage,
      () => listApiKeys(scope.organizationId, null, { limit: 50, q: 'leaked dep' }),
    ],
    [
      'keys',
      'one match, its prefix',
      keysFirstPage,
      () => listApiKeys(scope.organizationId, null, { limit: 50, q: leaked.prefix }),
    ],
    [
      'keys',
      'thousands, none among the newest (`pipeline 1`)',
      keysFirstPage,
      () => listApiKeys(scope.organizationId, null, { limit: 50, q: 'pipeline 1' }),
    ],
    [
      'keys',
      'one character (`7`)',
      keysFirstPage,
      () => listApiKeys(scope.organizationId, null, { limit: 50, q: '7' }),
    ],
    [
      'keys',
      'two characters, no match (`zq`)',
      keysFirstPage,
      () => listApiKeys(scope.organizationId, null, { limit: 50, q: 'zq' }),
    ],
    [
      'silences',
      'one match, a part of its comment',
      silencesFirstPage,
      () => listSilences(scope, { limit: 50, q: 'checkout-7' }),
    ],
    [
      'silences',
      'one match, a matcher value',
      silencesFirstPage,
      () => listSilences(scope, { limit: 50, q: 'payments-db' }),
    ],
    [
      'silences',
      'thousands, none among the newest (`deploy 1`)',
      silencesFirstPage,
      () => listSilences(scope, { limit: 50, q: 'deploy 1' }),
    ],
    ['silences', 'one character (`7`)', silencesFirstPage, () => listSilences(scope, { limit: 50, q: '7' })],
    [
      'silences',
      'two characters, no match (`zq`)',
      silencesFirstPage,
      () => listSilences(scope, { limit: 50, q: 'zq' }),
    ],
  ];
  for (const [list, what, firstPage, search] of searches) {
    const [first, time] = await mediansInTurns(firstPage, search);
    const ratio = first / time;
    const goal = what.startsWith('one match') ? (ratio >= 0.5 ? ', met (≥ 0.5x)' : ', missed (< 0.5x)') : '';
    note(`${phase}: ${list}: q, ${what}`, `${ms(time)} (${ratio.toFixed(2)}x the first page's rate${goal})`);
  }
}

const db = await getDb();
const scope = await insertScratchProject(db, `Scale ${Date.now()}`);
const owner = { type: 'bot' as const, id: crypto.randomUUID() };

const [, seedKeys] = await timed(() =>
  bulkInsertApiKeys(db, scope.organizationId, owner, KEYS, (i) =>
    i === Math.floor(KEYS / 2) ? 'Leaked deploy key' : `ci pipeline ${i}`,
  ),
);
const [, seedSilences] = await timed(() =>
  bulkInsertSilences(db, scope, owner, SILENCES, (i) => ({
    comment: i === 777 ? 'Rollout of checkout-7' : `deploy ${i}`,
    matchers: [{ label: 'service', op: '=', value: i === 778 ? 'payments-db' : `svc-${i % 500}` }],
    ended: i < SILENCES - 10,
  })),
);
// Searches right after the rows arrived (no statistics yet: PGlite has no autovacuum), then again after ANALYZE.
await timeSearches('right after the seed');
const [, seedAudit] = await timed(() => bulkAppendAuditEvents(db, scope.organizationId, AUDIT));
await analyzeSeeded(db);
note(
  'seed (keys, silences, audit events)',
  `${(seedKeys / 1000).toFixed(0)} s, ${(seedSilences / 1000).toFixed(0)} s, ${(seedAudit / 1000).toFixed(0)} s`,
);
await timeSearches('after ANALYZE');

const nearEnd = (count: number) =>
  encodeCursor({
    at: new Date(Date.now() - (count - 60) * 1000),
    id: 'f'.repeat(8) + '-ffff-4fff-bfff-' + 'f'.repeat(12),
  });

const keysFirst = await median(() => listApiKeys(scope.organizationId, null, { limit: 50 }));
const keysLast = await median(() => listApiKeys(scope.organizationId, null, { limit: 50, cursor: nearEnd(KEYS) }));
note('keys: first page', ms(keysFirst));
note('keys: a page near the end', `${ms(keysLast)} (${(keysLast / keysFirst).toFixed(2)}x the first)`);
const silencesFirst = await median(() => listSilences(scope, { limit: 50 }));
const silencesLast = await median(() => listSilences(scope, { limit: 50, cursor: nearEnd(SILENCES) }));
const active = await median(() => listSilences(scope, { limit: 50, state: 'active' }));
note('silences: first page', ms(silencesFirst));
note('silences: a page near the end', `${ms(silencesLast)} (${(silencesLast / silencesFirst).toFixed(2)}x the first)`);
note(
  'silences: state=active (10 among the expired)',
  `${ms(active)} (${(active / silencesFirst).toFixed(2)}x the first page)`,
);
note('silences: state=expired', ms(await median(() => listSilences(scope, { limit: 50, state: 'expired' }))));
note('silences: the counts per state', ms(await median(() => countSilences(scope))));
note('audit: first page', ms(await median(() => listAuditEvents(scope.organizationId, { limit: 50 }))));
note(
  'audit: a page near the end',
  ms(
    await median(() =>
      listAuditEvents(scope.organizationId, {
        limit: 50,
        cursor: Buffer.from(JSON.stringify({ seq: 100 })).toString('base64url'),
      }),
    ),
  ),
);

// The export as the route streams it: bytes counted and dropped as they come, resident memory sampled.
const baseline = process.memoryUsage().rss;
let peak = baseline;
let firstByte = 0;
let bytes = 0;
const [, exportMs] = await timed(async () => {
  const start = performance.now();
  const reader = exportStream(auditEventBatches(scope.organizationId, {}), 'ndjson').getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (bytes === 0) firstByte = performance.now() - start;
    bytes += value.byteLength;
    peak = Math.max(peak, process.memoryUsage().rss);
  }
});
note(
  `audit: export of ${AUDIT.toLocaleString('en')} events (NDJSON)`,
  `${(exportMs / 1000).toFixed(1)} s, first bytes after ${ms(firstByte)}, ${(bytes / 2 ** 20).toFixed(0)} MiB, peak RSS +${((peak - baseline) / 2 ** 20).toFixed(0)} MiB`,
);

// The job as POST …/audit-events/verifications runs it, polled as GET …/verifications/{id} reads it.
const [job, fullVerify] = await timed(async () => {
  const { id } = await startAuditVerification(scope.organizationId);
  for (;;) {
    const state = await getAuditVerification(scope.organizationId, id);
    if (state.state !== 'running') return state;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
});
note(
  'audit: full re-verification (the job)',
  `${(fullVerify / 1000).toFixed(1)} s, ${job.state}, ${job.verified.toLocaleString('en')} events`,
);
await verifyAuditChain(scope.organizationId);
note('audit: verify with a checkpoint, nothing new', ms(await median(() => verifyAuditChain(scope.organizationId))));

// The chain head's hold per write: from the event's statement (which takes the head) to the commit.
const holds: number[] = [];
for (let i = 0; i < RUNS * 4; i++) {
  let taken = 0;
  await db.transaction(async (tx) => {
    taken = performance.now();
    await recordAuditEvent(tx, {
      organizationId: scope.organizationId,
      action: 'silence.updated',
      actor: SYSTEM_ACTOR,
      target: { type: 'silence', id: crypto.randomUUID(), name: 'sil_bench' },
      context: { requestId: null, ip: null, userAgent: null },
    });
  });
  holds.push(performance.now() - taken);
}
const hold = holds.sort((a, b) => a - b)[Math.floor(holds.length / 2)];
note(
  'chain head held per write (event statement + commit)',
  `${ms(hold)}: at most ~${Math.floor(1000 / hold)} writes/s per organization`,
);
const { rehashed } = await verifyChainInDetail(scope.organizationId);
note(
  `verify after those ${holds.length} writes (re-hashed ${rehashed})`,
  ms(await median(() => verifyAuditChain(scope.organizationId))),
);

// The console's keys and silences pages, against the same pages of a small organization, through the built app.
const [small] = await db
  .insert(t.organizations)
  .values({ name: `Small ${Date.now()}` })
  .returning();
const [smallProject] = await db
  .insert(t.projects)
  .values({ organizationId: small.id, name: 'Production', alertingEnabled: true })
  .returning();
const smallScope = { organizationId: small.id, projectId: smallProject.id };
await bulkInsertApiKeys(db, small.id, owner, 50, (i) => `ci pipeline ${i}`);
await bulkInsertSilences(db, smallScope, owner, 50, (i) => ({
  comment: `deploy ${i}`,
  matchers: [{ label: 'service', op: '=', value: `svc-${i}` }],
  ended: i < 40,
}));
const password = 'bench-scale-password';
const [viewer] = await db
  .insert(t.users)
  .values({ email: `scale-${Date.now()}@bench.test`, name: 'Bench Viewer', passwordHash: await hashPassword(password) })
  .returning();
for (const organizationId of [scope.organizationId, small.id]) {
  await db.insert(t.memberships).values({ organizationId, userId: viewer.id });
  await db.insert(t.policyBindings).values({
    organizationId,
    projectId: null,
    principalType: 'user',
    principalId: viewer.id,
    policy: 'OrganizationAdmin',
  });
}
await closeDb();
const pageTimes =
  process.env.SCALE_CONSOLE === '0'
    ? []
    : await timeConsolePages({
        port: Number(process.env.BENCH_SCALE_PORT ?? 3470),
        env: dataDir ? { DATA_DIR: dataDir, DATABASE_URL: '' } : { DATABASE_URL: process.env.DATABASE_URL! },
        email: viewer.email,
        password,
        runs: Math.max(3, Math.round(RUNS / 3)),
        pages: [
          { name: 'API keys', big: `/orgs/${scope.organizationId}/api-keys`, small: `/orgs/${small.id}/api-keys` },
          {
            name: 'Silences (the counts, then the active tab)',
            big: `/orgs/${scope.organizationId}/projects/${scope.projectId}/silences`,
            small: `/orgs/${small.id}/projects/${smallProject.id}/silences`,
          },
        ],
      });
for (const p of pageTimes)
  note(
    `console: ${p.name}, navigation to rows on screen`,
    `${ms(p.big)} (${(p.big / p.small).toFixed(2)}x the page of an organization with 50)`,
  );
if (dataDir) rmSync(dataDir, { recursive: true, force: true });

const sizes = `${KEYS.toLocaleString('en')} keys, ${SILENCES.toLocaleString('en')} silences, ${AUDIT.toLocaleString('en')} audit events`;
const table = [
  `${kind}, ${sizes}, ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}:`,
  '',
  '| measure | figure |',
  '|---|---|',
  ...rows.map(([what, figure]) => `| ${what} | ${figure} |`),
].join('\n');
const docFile = path.join(process.cwd(), 'docs/big-organizations.md');
const start = `<!-- bench:scale ${kind} -->`;
const end = `<!-- /bench:scale ${kind} -->`;
const doc = readFileSync(docFile, 'utf8');
const from = doc.indexOf(start);
const to = doc.indexOf(end);
if (from >= 0 && to > from) writeFileSync(docFile, `${doc.slice(0, from + start.length)}\n${table}\n${doc.slice(to)}`);
console.log(`\n${table}`);
