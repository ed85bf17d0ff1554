import { and, desc, eq, gt, lte, or, sql, type SQL } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { jsonRow, jsonRowsStatement, projectWhere } from '../db/statement';
import { containsPattern } from '../db/search';
import { cursorCodec, dateOf, fieldOf } from '../http/cursor';
import { labelSetTest, type Matcher } from '../silences/matchers';
import { alertJson, mutedAt, silencedByAt } from './state';
import type { Alert, AlertState } from './schema';
import type { AlertScope } from './service';
import { settings } from '../settings/settings';

/** A stored alert with the active silences that mute it as of one clock reading. */
export type AlertRow = Omit<typeof t.alerts.$inferSelect, 'audible' | 'firingNotifiedAt'> & { silencedBy: string[] };

/** A clock reading as a statement's value. */
const instant = (at: Date) => sql`${at.toISOString()}::timestamptz`;
/** A clock reading as a named statement's placeholder. */
const instantNamed = (name: 'now' | 'keptFrom' | 'at') => sql`${sql.placeholder(name)}::timestamptz`;

/** The label nearly every filter names (Alertmanager's UI, karma, Grafana group by it): indexed on its own. */
const ALERTNAME = sql`(${t.alerts.labels} ->> 'alertname')`;

const columns = {
  organizationId: t.alerts.organizationId,
  projectId: t.alerts.projectId,
  fingerprint: t.alerts.fingerprint,
  labels: t.alerts.labels,
  annotations: t.alerts.annotations,
  generatorUrl: t.alerts.generatorUrl,
  startsAt: t.alerts.startsAt,
  endsAt: t.alerts.endsAt,
  endsByTimeout: t.alerts.endsByTimeout,
  updatedAt: t.alerts.updatedAt,
  sizeBytes: t.alerts.sizeBytes,
};

const selection = (now: Date) => ({ ...columns, silencedBy: silencedByAt(instant(now)) });

/** Every unresolved alert of the project, by fingerprint, with its silences: what Alertmanager's GETs list. */
export async function unresolvedAlerts(scope: AlertScope, now = new Date()): Promise<AlertRow[]> {
  const db = await getDb();
  return db
    .select(selection(now))
    .from(t.alerts)
    .where(and(projectWhere(t.alerts, scope), gt(t.alerts.endsAt, now)))
    .orderBy(t.alerts.fingerprint);
}

export function alertState(row: Pick<AlertRow, 'endsAt' | 'silencedBy'>, now: Date): AlertState {
  if (row.endsAt <= now) return 'resolved';
  return row.silencedBy.length > 0 ? 'silenced' : 'firing';
}

export function toAlert(row: AlertRow, now: Date): Alert {
  return alertJson(row, alertState(row, now), row.silencedBy);
}

export async function getAlert(scope: AlertScope, fingerprint: string, now = new Date()): Promise<Alert | null> {
  const db = await getDb();
  const keptFrom = new Date(now.getTime() - settings().ALERT_RETENTION_SECONDS * 1000);
  const [row] = await db
    .select(selection(now))
    .from(t.alerts)
    .where(and(projectWhere(t.alerts, scope), eq(t.alerts.fingerprint, fingerprint), gt(t.alerts.endsAt, keptFrom)));
  return row ? toAlert(row, now) : null;
}

type Position = { at: Date; fingerprint: string };

/** The (startsAt, fingerprint) of the last alert served. */
const alertCursor = cursorCodec<Position>(
  (p) => ({ at: p.at.toISOString(), fp: p.fingerprint }),
  (value) => {
    const at = dateOf(fieldOf(value, 'at'));
    const fp = fieldOf(value, 'fp');
    return at && typeof fp === 'string' && /^[0-9a-f]{16}$/.test(fp) ? { at, fingerprint: fp } : null;
  },
);

function stateCondition(states: AlertState[], now: SQL, keptFrom: SQL): SQL | undefined {
  const of: Record<AlertState, SQL> = {
    resolved: and(lte(t.alerts.endsAt, now), gt(t.alerts.endsAt, keptFrom))!,
    firing: and(gt(t.alerts.endsAt, now), sql`not ${mutedAt(now)}`)!,
    silenced: and(gt(t.alerts.endsAt, now), mutedAt(now))!,
  };
  const set = new Set(states);
  if (set.has('firing') && set.has('silenced'))
    return or(gt(t.alerts.endsAt, now), set.has('resolved') ? of.resolved : undefined);
  return or(...[...set].map((s) => of[s]));
}

/** A page's row, one JSON array each (lib/db/statement.ts): the list's hot read, as the key list's. */
const listRow = jsonRow({ ...columns, silencedBy: silencedByAt(instantNamed('now')) });

/** The list's rows of the project its placeholders name that meet `conditions`. */
const rowsOfProject = (...conditions: (SQL | undefined)[]) =>
  new QueryBuilder()
    .select({ row: listRow.sql.as('row') })
    .from(t.alerts)
    .where(
      and(
        eq(t.alerts.organizationId, sql.placeholder('organizationId')),
        eq(t.alerts.projectId, sql.placeholder('projectId')),
        ...conditions,
      ),
    );

let byFingerprints: ((values: Record<string, unknown>) => Promise<AlertRow[]>) | undefined;

/** The project's alerts of these fingerprints (16 hex digits each), with their silences as of `now`, in no order. */
export async function alertRowsOf(scope: AlertScope, fingerprints: string[], now: Date): Promise<AlertRow[]> {
  if (fingerprints.length === 0) return [];
  byFingerprints ??= jsonRowsStatement(
    rowsOfProject(sql`${t.alerts.fingerprint} = any(${sql.placeholder('fingerprints')}::text[])`),
    listRow,
  );
  // An array literal needs no quoting for hex digits.
  return byFingerprints({ ...scope, now: now.toISOString(), fingerprints: `{${fingerprints.join(',')}}` });
}

type ListShape = { states: AlertState[]; search: boolean; narrowed: boolean; named: boolean; after: boolean };

const listStatements = new Map<string, (values: Record<string, unknown>) => Promise<AlertRow[]>>();

/**
 * The list's read as a named statement, one per shape (which states, searched, narrowed by `=` filters, by an
 * `alertname` one, after a cursor: at most 112), planned once per connection; every value is a placeholder.
 */
function listStatement(shape: ListShape) {
  const key = JSON.stringify(shape);
  let statement = listStatements.get(key);
  if (statement) return statement;
  const query = rowsOfProject(
    stateCondition(shape.states, instantNamed('now'), instantNamed('keptFrom')),
    shape.search
      ? sql`(${t.alerts.labels}::text || ' ' || ${t.alerts.annotations}::text) ilike ${sql.placeholder('contains')}`
      : undefined,
    shape.narrowed ? sql`${t.alerts.labels} @> ${sql.placeholder('labels')}::jsonb` : undefined,
    // Not in `@>`: the planner estimates its match at about one row, so it reads every match from the GIN index
    // and sorts them; this one reads alerts_alertname_idx in the list's order and stops at the page's end.
    shape.named ? sql`${ALERTNAME} = ${sql.placeholder('alertname')}` : undefined,
    shape.after
      ? sql`(${t.alerts.startsAt}, ${t.alerts.fingerprint}) < (${instantNamed('at')}, ${sql.placeholder('fingerprint')})`
      : undefined,
  )
    .orderBy(desc(t.alerts.startsAt), desc(t.alerts.fingerprint))
    .limit(sql.placeholder('limit'));
  statement = jsonRowsStatement(query, listRow);
  listStatements.set(key, statement);
  return statement;
}

const SCAN = 500;

/**
 * Newest first (startsAt, then fingerprint), in keyset pages. `filter` matchers are tested here with the silences'
 * matcher code (RE2, an absent label as ""), so a page reads on in batches until it is full or the list ends.
 */
export async function listAlerts(
  scope: AlertScope,
  query: { limit: number; cursor?: string; state?: AlertState[]; filters: Matcher[]; q?: string },
  now = new Date(),
): Promise<{ items: Alert[]; nextCursor: string | null }> {
  const states = [...new Set(query.state?.length ? query.state : (['firing', 'silenced'] as AlertState[]))].sort();
  const passes = labelSetTest(query.filters);
  // `=` filters go to the database (the labels' GIN index, or alertname's own); when they are all there is, every row
  // read passes, so a page reads one more than it shows instead of batches of SCAN. An empty value stays in the app.
  const equal = query.filters.filter((m) => m.op === '=' && m.value !== '');
  // The last `alertname` one, as `Object.fromEntries` would keep it; every filter is still tested below.
  const alertname = equal.findLast((m) => m.label === 'alertname')?.value;
  const contained = equal.filter((m) => m.label !== 'alertname');
  const batch = equal.length === query.filters.length ? query.limit + 1 : SCAN;
  const values = {
    organizationId: scope.organizationId,
    projectId: scope.projectId,
    now: now.toISOString(),
    keptFrom: new Date(now.getTime() - settings().ALERT_RETENTION_SECONDS * 1000).toISOString(),
    contains: query.q ? containsPattern(query.q) : undefined,
    labels: contained.length ? JSON.stringify(Object.fromEntries(contained.map((m) => [m.label, m.value]))) : undefined,
    alertname,
    limit: batch,
  };
  let position = query.cursor ? alertCursor.decode(query.cursor) : null;
  const found: AlertRow[] = [];
  for (;;) {
    const shape = { states, search: !!query.q, narrowed: contained.length > 0, named: alertname !== undefined };
    const read = listStatement({ ...shape, after: position !== null });
    const rows = await read({ ...values, at: position?.at.toISOString(), fingerprint: position?.fingerprint });
    for (const row of rows) if (passes(row.labels) && found.length <= query.limit) found.push(row);
    const last = rows.at(-1);
    if (rows.length < batch || found.length > query.limit || !last) break;
    position = { at: last.startsAt, fingerprint: last.fingerprint };
  }
  const more = found.length > query.limit;
  const items = found.slice(0, query.limit);
  const end = items.at(-1);
  return {
    items: items.map((r) => toAlert(r, now)),
    nextCursor: more && end ? alertCursor.encode({ at: end.startsAt, fingerprint: end.fingerprint }) : null,
  };
}
