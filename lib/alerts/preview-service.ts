import { and, desc, eq, gt, inArray, sql, type SQL } from 'drizzle-orm';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { labelSetTest, type Matcher } from '../silences/matchers';
import { alertRows, toAlert } from './list-service';
import type { PreviewAnswer } from './schema';
import type { AlertScope } from './service';

export const PREVIEW_ALERTS = 100;

/** A text[] value in PostgreSQL's array syntax: each element quoted, its backslashes and quotes escaped. */
const textArray = (items: string[]) =>
  `{${items.map((v) => `"${v.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`).join(',')}}`;

/**
 * The unresolved alerts a draft silence would mute, with the silence's own matching (RE2 anchored, an absent label
 * read as ""). Alerts share label values (10,000 alerts over 400 hosts), so the matchers are tested once per distinct
 * combination of the values of the labels they name, read unsorted with each one's count (the total); the database
 * then walks the list's order only until 100 alerts hold a passed combination, read whole. `=` matchers narrow
 * every read through the labels' index. PostgreSQL's `~` is not RE2: the regexes are tested here, the database
 * only compares the values that passed.
 */
export async function previewSilence(scope: AlertScope, matchers: Matcher[], now = new Date()): Promise<PreviewAnswer> {
  const db = await getDb();
  const names = [...new Set(matchers.map((m) => m.label))];
  // An absent label reads as "", as the matchers read it: the same test, the same combination.
  const values = names.map((n) => sql`coalesce(${t.alerts.labels} ->> ${n}::text, '')`);
  const tuple = sql`(${sql.join(values, sql`, `)})`;
  const equal = matchers.filter((m) => m.op === '=' && m.value !== '');
  const contains = JSON.stringify(Object.fromEntries(equal.map((m) => [m.label, m.value])));
  const unresolved: SQL = and(
    eq(t.alerts.organizationId, scope.organizationId),
    eq(t.alerts.projectId, scope.projectId),
    gt(t.alerts.endsAt, now),
    equal.length > 0 ? sql`${t.alerts.labels} @> ${contains}::jsonb` : undefined,
  )!;
  const { rows: combinations } = await db.execute<{ v: string[]; n: number }>(
    sql`select array[${sql.join(values, sql`, `)}]::text[] as v, count(*)::int as n from ${t.alerts}
      where ${unresolved} group by 1`,
  );
  const matches = labelSetTest(matchers);
  const passing = combinations.filter((c) => matches(Object.fromEntries(names.map((n, i) => [n, c.v[i]]))));
  if (passing.length === 0) return { total: 0, alerts: [] };
  const passed = passing.map((c) => c.v);
  const wanted =
    names.length === 1
      ? // One label: `= any` of an array value, which PostgreSQL tests through a hash table.
        sql`${values[0]} = any(${textArray(passed.map((v) => v[0]))}::text[])`
      : // The passed combinations, one JSON array per label zipped back into rows (`rows from` pairs the i-th ones).
        sql`${tuple} in (select * from rows from (${sql.join(
          names.map((_, i) => sql`jsonb_array_elements_text(${JSON.stringify(passed.map((v) => v[i]))}::jsonb)`),
          sql`, `,
        )}))`;
  const page = await db
    .select({ fingerprint: t.alerts.fingerprint })
    .from(t.alerts)
    .where(and(unresolved, wanted))
    .orderBy(desc(t.alerts.startsAt), desc(t.alerts.fingerprint))
    .limit(PREVIEW_ALERTS);
  const first = page.map((a) => a.fingerprint);
  const rows = first.length > 0 ? await alertRows(scope, inArray(t.alerts.fingerprint, first), now) : [];
  const byFingerprint = new Map(rows.map((r) => [r.fingerprint, r]));
  const alerts = first.flatMap((fp) => {
    const row = byFingerprint.get(fp);
    return row ? [toAlert(row, now)] : [];
  });
  return { total: passing.reduce((sum, c) => sum + Number(c.n), 0), alerts };
}
