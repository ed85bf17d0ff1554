// What a phase of the drill asked of PostgreSQL: PgBouncer's counts of transactions and statements it passed on,
// PostgreSQL's own commits, row writes and WAL flushes, and the CPU of its backends and of the instance.
import type pg from 'pg';
import { cpuMs, sampleApp, samplePostgres, type Sample } from '../../bench/cpu';
import type { Pgbouncer } from './pgbouncer';

export type Figures = {
  xacts: number;
  statements: number;
  commits: number;
  inserted: number;
  updated: number;
  deleted: number;
  walSyncs: number;
  walBytes: number;
  pgCpuMs: number;
  appCpuMs: number;
  ms: number;
};

type Snapshot = {
  at: number;
  counts: Omit<Figures, 'pgCpuMs' | 'appCpuMs' | 'ms'>;
  pg: Sample;
  app: Sample;
};

export type Meter = { snapshot: () => Promise<Snapshot>; between: (a: Snapshot, b: Snapshot) => Figures };

// Backends report their statistics at most once a second, PgBouncer its totals once per stats_period (1 s).
const SETTLE_MS = 2_200;

export function meter(admin: pg.Client, database: string, pooler: Pgbouncer, appPid: number): Meter {
  const snapshot = async (): Promise<Snapshot> => {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const [{ rows }, pooled, pgSample] = await Promise.all([
      admin.query<Record<string, string>>(
        `select d.xact_commit, d.tup_inserted, d.tup_updated, d.tup_deleted, w.wal_sync, w.wal_bytes
           from pg_stat_database d, pg_stat_wal w where d.datname = $1`,
        [database],
      ),
      pooler.stats(database),
      samplePostgres(admin, database),
    ]);
    const r = rows[0];
    return {
      at: performance.now(),
      counts: {
        xacts: pooled.xacts,
        statements: pooled.queries,
        commits: Number(r.xact_commit),
        inserted: Number(r.tup_inserted),
        updated: Number(r.tup_updated),
        deleted: Number(r.tup_deleted),
        walSyncs: Number(r.wal_sync),
        walBytes: Number(r.wal_bytes),
      },
      pg: pgSample,
      app: sampleApp(appPid),
    };
  };
  const between = (a: Snapshot, b: Snapshot): Figures => {
    const counts = Object.fromEntries(
      Object.entries(b.counts).map(([k, v]) => [k, v - a.counts[k as keyof Snapshot['counts']]]),
    ) as Snapshot['counts'];
    return { ...counts, pgCpuMs: cpuMs(a.pg, b.pg), appCpuMs: cpuMs(a.app, b.app), ms: b.at - a.at };
  };
  return { snapshot, between };
}

/** A phase's figures per request, less what the same time costs idle (background jobs' polling). */
export function perRequest(phase: Figures, idle: Figures, requests: number): Record<keyof Figures, number> {
  const scale = phase.ms / idle.ms;
  const out = {} as Record<keyof Figures, number>;
  for (const key of Object.keys(phase) as (keyof Figures)[])
    out[key] = key === 'ms' ? phase.ms / requests : Math.max(0, phase[key] - idle[key] * scale) / requests;
  return out;
}
