import client from 'prom-client';
import type { DatabaseFigures } from '../db/client';

/**
 * The process's Prometheus metrics, on prom-client's default registry so other modules (webhook deliveries)
 * add theirs beside these and /metrics shows them all. Every name starts with `svc_`; labels carry route
 * templates, methods, statuses, limiter names and audit actions, never an id, a name or a user.
 */
export const registry = client.register;

/** Next may evaluate this module once per bundle: a metric is made once per process and found after that. */
function once<T extends client.Metric>(name: string, make: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? make();
}

const state = globalThis as unknown as { __svcDefaultMetrics?: boolean };
if (!state.__svcDefaultMetrics) {
  state.__svcDefaultMetrics = true;
  client.collectDefaultMetrics({ prefix: 'svc_' });
}

export const requestDuration = once(
  'svc_http_request_duration_seconds',
  () =>
    new client.Histogram({
      name: 'svc_http_request_duration_seconds',
      help: 'API requests (/v1, OAuth, SCIM) by method, route template and status, from arrival to answer.',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    }),
);

export const slowRequests = once(
  'svc_http_slow_requests_total',
  () =>
    new client.Counter({
      name: 'svc_http_slow_requests_total',
      help: 'API requests that took SLOW_REQUEST_MS or longer (each also logged as "slow request", with what else ran).',
      labelNames: ['method', 'route'] as const,
    }),
);

export const rateLimitRefusals = once(
  'svc_rate_limit_refusals_total',
  () =>
    new client.Counter({
      name: 'svc_rate_limit_refusals_total',
      help: 'Requests refused by a rate limit (429), by limiter: api, signin, anon, authfail.',
      labelNames: ['limiter'] as const,
    }),
);

export const auditEventsWritten = once(
  'svc_audit_events_written_total',
  () =>
    new client.Counter({
      name: 'svc_audit_events_written_total',
      help: 'Audit events written, by action (counted when the statement that writes them succeeds).',
      labelNames: ['action'] as const,
    }),
);

export const auditEventsRehashed = once(
  'svc_audit_verify_rehashed_events_total',
  () =>
    new client.Counter({
      name: 'svc_audit_verify_rehashed_events_total',
      help: 'Audit events re-hashed by verifications, by kind: quick (GET …/verify, from the verified prefix) or full (the job).',
      labelNames: ['kind'] as const,
    }),
);

export const auditVerificationsFinished = once(
  'svc_audit_verifications_total',
  () =>
    new client.Counter({
      name: 'svc_audit_verifications_total',
      help: 'Full re-verification jobs ended, by result: intact, broken (a changed or missing event found) or failed.',
      labelNames: ['result'] as const,
    }),
);

once('svc_build_info', () => {
  const gauge = new client.Gauge({
    name: 'svc_build_info',
    help: 'Always 1; the version label names the build this process runs.',
    labelNames: ['version'] as const,
  });
  gauge.set({ version: process.env.SVC_VERSION ?? 'unknown' }, 1);
  return gauge;
});

/** What the database client reports at each scrape (lib/db/client.ts sets it when a database opens). */
const figures = globalThis as unknown as { __svcDbFigures?: () => DatabaseFigures | null };

/** Where /metrics reads the database's pools (server/hooks.ts hands it lib/db/client.ts's `databaseFigures`). */
export function reportDatabaseFigures(read: () => DatabaseFigures | null): void {
  figures.__svcDbFigures = read;
}

const current = () => figures.__svcDbFigures?.() ?? null;

once(
  'svc_db_pool_connections',
  () =>
    new client.Gauge({
      name: 'svc_db_pool_connections',
      help: 'PostgreSQL connections per pool (svc, svc-counters, svc-search) by state: total, idle, waiting (callers queued).',
      labelNames: ['pool', 'state'] as const,
      collect() {
        this.reset();
        for (const pool of current()?.pools ?? []) {
          this.set({ pool: pool.name, state: 'total' }, pool.total);
          this.set({ pool: pool.name, state: 'idle' }, pool.idle);
          this.set({ pool: pool.name, state: 'waiting' }, pool.waiting);
        }
      },
    }),
);

once(
  'svc_db_embedded_statements_in_flight',
  () =>
    new client.Gauge({
      name: 'svc_db_embedded_statements_in_flight',
      help: "Embedded database: statements sent to PGlite's thread and not yet answered (running or queued).",
      collect() {
        this.reset();
        const inFlight = current()?.inFlight;
        if (inFlight !== undefined) this.set(inFlight);
      },
    }),
);

once(
  'svc_db_up',
  () =>
    new client.Gauge({
      name: 'svc_db_up',
      help: 'Whether this process has its database open (1) or not yet or no longer (0), by kind.',
      labelNames: ['kind'] as const,
      collect() {
        this.reset();
        const now = current();
        this.set({ kind: now?.kind ?? (process.env.DATABASE_URL ? 'postgres' : 'pglite') }, now ? 1 : 0);
      },
    }),
);

/** A path's segments with every id replaced by `{id}`, for protocols whose routes declare no template (SCIM). */
export function templateOf(pathname: string): string {
  return pathname
    .split('/')
    .map((segment) => (/^v\d+$/.test(segment) || !/[\d%]/.test(segment) ? segment : '{id}'))
    .join('/');
}
