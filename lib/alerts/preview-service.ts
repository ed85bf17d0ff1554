import { and, eq, gt, sql, type SQL } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { getDb, type Db } from '../db/client';
import * as t from '../db/schema';
import { labelSetTest, type Matcher } from '../silences/matchers';
import { readAlertEpoch } from './epoch';
import { alertRowsOf, toAlert } from './list-service';
import type { PreviewAnswer } from './schema';
import type { AlertScope } from './service';
import { queryRows } from '../db/statement';

export const PREVIEW_ALERTS = 100;

type Newest = { fingerprint: string; start: number };

/** The list's order: start, then fingerprint, newest first (lowercase hex sorts the same here as in the database). */
const listOrder = (x: Newest, y: Newest) =>
  y.start - x.start || (x.fingerprint < y.fingerprint ? 1 : x.fingerprint > y.fingerprint ? -1 : 0);

/**
 * One combination of label values among the unresolved alerts: how many hold it, and the newest 100 of them in the
 * list's order (`start` in epoch milliseconds), enough to make any preview's first page from the passed ones.
 */
type Combination = { v: string[]; n: number; newest: Newest[] };

/**
 * One read of a project's value combinations and while it holds: the epoch it was read under, the request time it
 * counted unresolved alerts at, and the earliest end among them (each one counted stays unresolved until then).
 */
type KeptRead = { epoch: string; from: number; until: number; combinations: Combination[] };

// Per process, as the requests that fill it; bounded by the alerts it names (10,000 alerts over 400 hosts are 400
// combinations of 25 for `instance`). A person typing matchers asks again and again with the same label names, and
// Prometheus's resends leave the epoch alone, so most previews read neither the project's unresolved alerts nor a
// page of them: only the 100 alerts they show.
const keptReads = new LRUCache<string, KeptRead>({
  max: 1000,
  maxSize: 200_000,
  sizeCalculation: (r) => r.combinations.reduce((sum, c) => sum + c.newest.length, 1),
});

/** `column` in epoch milliseconds. */
const ms = (column: SQL | typeof t.alerts.startsAt) => sql`(extract(epoch from ${column}) * 1000)::float8`;

/**
 * The distinct combinations of `values` among the `unresolved` alerts, with their counts and newest alerts: kept per
 * project, label names and `=` values (`key`), and read again unless the project's alert epoch (lib/alerts/epoch.ts,
 * one primary-key read) is unchanged and `now` lies between the kept read's time and its earliest end: exactly what
 * the read would give again, on every instance.
 */
async function valueCombinations(
  db: Db,
  scope: AlertScope,
  key: string,
  values: SQL[],
  unresolved: SQL,
  now: Date,
): Promise<Combination[]> {
  // Read before the combinations: a write committed between the two moves it on, and the next request reads again.
  const epoch = await readAlertEpoch(db, scope);
  const at = now.getTime();
  const kept = epoch === null ? undefined : keptReads.get(key);
  if (kept && kept.epoch === epoch && kept.from <= at && at < kept.until) return kept.combinations;
  // Grouped by bytes ("C"): in the database's collation the sort, and an aggregate in order, were most of the
  // statement (docs/benchmarks.md, Alerts at 10,000). So each group's alerts come unordered, as two arrays fed by
  // the same rows in one order, and are put in the list's order here.
  const rows = await queryRows<{
    v: string[];
    n: number;
    until: number;
    fingerprints: string[];
    starts: number[];
  }>(
    db,
    sql`select array[${sql.join(
      values.map((v) => sql`${v} collate "C"`),
      sql`, `,
    )}]::text[] as v, count(*)::int as n, ${ms(sql`min(${t.alerts.endsAt})`)} as until,
      array_agg(${t.alerts.fingerprint}) as fingerprints, array_agg(${ms(t.alerts.startsAt)}) as starts
    from ${t.alerts} where ${unresolved} group by 1`,
  );
  const combinations = rows.map(({ v, n, fingerprints, starts }) => ({
    v,
    n,
    newest: fingerprints
      .map((fingerprint, i) => ({ fingerprint, start: Math.round(Number(starts[i])) }))
      .sort(listOrder)
      .slice(0, PREVIEW_ALERTS),
  }));
  // Ends are kept to the millisecond; rounded, a float's last digit cannot move one past `now`.
  const until = rows.reduce((first, r) => Math.min(first, Math.round(Number(r.until))), Infinity);
  if (epoch !== null) keptReads.set(key, { epoch, from: at, until, combinations });
  return combinations;
}

/**
 * The unresolved alerts a draft silence would mute, with the silence's own matching (RE2 anchored, an absent label
 * read as ""). Alerts share label values (10,000 alerts over 400 hosts), so the matchers are tested once per distinct
 * combination of the values of the labels they name (`valueCombinations`, kept while it holds), each with its count
 * (the total) and its newest 100 alerts, from which the first page comes; only those 100 are read whole. `=`
 * matchers narrow the read through the labels' index. PostgreSQL's `~` is not RE2: the regexes are tested here.
 */
export async function previewSilence(scope: AlertScope, matchers: Matcher[], now = new Date()): Promise<PreviewAnswer> {
  const db = await getDb();
  const names = [...new Set(matchers.map((m) => m.label))];
  // An absent label reads as "", as the matchers read it: the same test, the same combination.
  const values = names.map((n) => sql`coalesce(${t.alerts.labels} ->> ${n}::text, '')`);
  const equal = matchers.filter((m) => m.op === '=' && m.value !== '');
  const contains = JSON.stringify(Object.fromEntries(equal.map((m) => [m.label, m.value])));
  const unresolved: SQL = and(
    eq(t.alerts.organizationId, scope.organizationId),
    eq(t.alerts.projectId, scope.projectId),
    gt(t.alerts.endsAt, now),
    equal.length > 0 ? sql`${t.alerts.labels} @> ${contains}::jsonb` : undefined,
  )!;
  const key = JSON.stringify([scope.organizationId, scope.projectId, names, contains]);
  const combinations = await valueCombinations(db, scope, key, values, unresolved, now);
  const matches = labelSetTest(matchers);
  const passing = combinations.filter((c) => matches(Object.fromEntries(names.map((n, i) => [n, c.v[i]]))));
  if (passing.length === 0) return { total: 0, alerts: [] };
  // The page: the newest 100 of the passed combinations' newest 100s.
  const first = passing
    .flatMap((c) => c.newest)
    .sort(listOrder)
    .slice(0, PREVIEW_ALERTS)
    .map((a) => a.fingerprint);
  const byFingerprint = new Map((await alertRowsOf(scope, first, now)).map((r) => [r.fingerprint, r]));
  const alerts = first.flatMap((fp) => {
    const row = byFingerprint.get(fp);
    return row ? [toAlert(row, now)] : [];
  });
  return { total: passing.reduce((sum, c) => sum + Number(c.n), 0), alerts };
}
