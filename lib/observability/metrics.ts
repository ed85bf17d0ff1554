import client from 'prom-client';
import type { DatabaseFigures } from '../db/client';
import { settings } from '../settings/settings';
import { hook } from '../hooks';

/**
 * The process's Prometheus metrics, on prom-client's default registry so other modules (webhook deliveries)
 * add theirs beside these and /metrics shows them all. Every name starts with `svc_`; labels carry route
 * templates, methods, statuses, limiter names and audit actions, never an id, a name or a user.
 */
export const registry = client.register;

/** Next may evaluate a module once per bundle: a metric is made once per process and found after that. */
function once<T extends client.Metric>(name: string, make: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? make();
}

/**
 * The one way to make a metric (every feature's `metrics.ts` declares its own through these): on the default
 * registry, made once per process however often Next loads the module that declares it. `labels` are the label
 * names; `collect` runs at each scrape.
 */
export function counter<L extends string = never>(name: string, help: string, labels: readonly L[] = []) {
  return once(name, () => new client.Counter<L>({ name, help, labelNames: labels }));
}

export function gauge<L extends string = never>(
  name: string,
  help: string,
  labels: readonly L[] = [],
  collect?: (this: client.Gauge<L>) => void,
) {
  return once(name, () => new client.Gauge<L>({ name, help, labelNames: labels, collect }));
}

export function histogram<L extends string = never>(
  name: string,
  help: string,
  labels: readonly L[],
  buckets: number[],
) {
  return once(name, () => new client.Histogram<L>({ name, help, labelNames: labels, buckets }));
}

const state = globalThis as unknown as { __svcDefaultMetrics?: boolean };
if (!state.__svcDefaultMetrics) {
  state.__svcDefaultMetrics = true;
  client.collectDefaultMetrics({ prefix: 'svc_' });
}

export const requestDuration = histogram(
  'svc_http_request_duration_seconds',
  'API requests (/v1, OAuth, SCIM) by method, route template and status, from arrival to answer.',
  ['method', 'route', 'status'],
  [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
);

export const slowRequests = counter(
  'svc_http_slow_requests_total',
  'API requests that took SLOW_REQUEST_MS or longer (each also logged as "slow request", with what else ran).',
  ['method', 'route'],
);

export const rateLimitRefusals = counter(
  'svc_rate_limit_refusals_total',
  'Requests refused by a rate limit (429), by limiter: api, signin, anon, authfail.',
  ['limiter'],
);

export const auditEventsWritten = counter(
  'svc_audit_events_written_total',
  'Audit events written, by action (counted when the statement that writes them succeeds).',
  ['action'],
);

export const auditEventsRehashed = counter(
  'svc_audit_verify_rehashed_events_total',
  'Audit events re-hashed by verifications, by kind: quick (GET …/verify, from the verified prefix) or full (the job).',
  ['kind'],
);

export const auditVerificationsFinished = counter(
  'svc_audit_verifications_total',
  'Full re-verification jobs ended, by result: intact, broken (a changed or missing event found) or failed.',
  ['result'],
);

gauge('svc_build_info', 'Always 1; the version label names the build this process runs.', ['version']).set(
  { version: settings().SVC_VERSION },
  1,
);

/** What the database client reports at each scrape: server/hooks.ts hands it lib/db/client.ts's `databaseFigures`. */
const figures = hook<() => DatabaseFigures | null>('database figures');

export const reportDatabaseFigures = figures.register;

const current = () => figures.find()?.() ?? null;

gauge(
  'svc_db_pool_connections',
  'PostgreSQL connections per pool (svc, svc-counters, svc-search) by state: total, idle, waiting (callers queued).',
  ['pool', 'state'],
  function () {
    this.reset();
    for (const pool of current()?.pools ?? []) {
      this.set({ pool: pool.name, state: 'total' }, pool.total);
      this.set({ pool: pool.name, state: 'idle' }, pool.idle);
      this.set({ pool: pool.name, state: 'waiting' }, pool.waiting);
    }
  },
);

gauge(
  'svc_db_embedded_statements_in_flight',
  "Embedded database: statements sent to PGlite's thread and not yet answered (running or queued).",
  [],
  function () {
    this.reset();
    const inFlight = current()?.inFlight;
    if (inFlight !== undefined) this.set(inFlight);
  },
);

gauge(
  'svc_db_up',
  'Whether this process has its database open (1) or not yet or no longer (0), by kind.',
  ['kind'],
  function () {
    this.reset();
    const now = current();
    this.set({ kind: now?.kind ?? (settings().DATABASE_URL ? 'postgres' : 'pglite') }, now ? 1 : 0);
  },
);

/** A path's segments with every id replaced by `{id}`, for protocols whose routes declare no template (SCIM). */
export function templateOf(pathname: string): string {
  return pathname
    .split('/')
    .map((segment) => (/^v\d+$/.test(segment) || !/[\d%]/.test(segment) ? segment : '{id}'))
    .join('/');
}
