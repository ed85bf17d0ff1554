import { and, desc, eq, gt, lte, or, sql, type SQL } from 'drizzle-orm';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { containsPattern } from '../db/search';
import { ApiError } from '../errors';
import { labelSetTest, type Matcher } from '../silences/matchers';
import { alertJson } from '../silences/notify-service';
import { alertRetentionSeconds } from './limits';
import type { Alert, AlertState } from './schema';
import type { AlertScope } from './service';

/** A stored alert with the active silences that mute it as of one clock reading. */
export type AlertRow = Omit<typeof t.alerts.$inferSelect, 'audible' | 'firingNotifiedAt'> & { silencedBy: string[] };

// Qualified by hand: drizzle leaves a one-table select's columns bare, which the subqueries' joins make ambiguous.
const SAME_ALERT = sql.raw(
  'l.organization_id = "alerts"."organization_id" and l.project_id = "alerts"."project_id" and l.fingerprint = "alerts"."fingerprint"',
);

/**
 * The ids of the active silences linked to an alert, sorted, as one subquery per row: the links (kept on write)
 * say which silences match; the clock says which of those are active now.
 */
const silencedBy = (now: Date) => sql<string[]>`coalesce((
    select array_agg(l.silence_id::text order by l.silence_id)
    from ${t.alertSilences} l join ${t.silences} s on s.id = l.silence_id
    where ${SAME_ALERT}
      and s.starts_at <= ${now.toISOString()}::timestamptz and s.ends_at > ${now.toISOString()}::timestamptz
  ), '{}')`;

const muted = (now: Date) => sql`exists (
    select 1 from ${t.alertSilences} l join ${t.silences} s on s.id = l.silence_id
    where ${SAME_ALERT}
      and s.starts_at <= ${now.toISOString()}::timestamptz and s.ends_at > ${now.toISOString()}::timestamptz)`;

const inProject = (scope: AlertScope) =>
  and(eq(t.alerts.organizationId, scope.organizationId), eq(t.alerts.projectId, scope.projectId));

const selection = (now: Date) => ({
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
  silencedBy: silencedBy(now),
});

/** The project's alerts that meet `where`, with their silences as of `now`. */
export async function alertRows(scope: AlertScope, where: SQL, now: Date): Promise<AlertRow[]> {
  const db = await getDb();
  return db
    .select(selection(now))
    .from(t.alerts)
    .where(and(inProject(scope), where));
}

/** Every unresolved alert of the project, by fingerprint, with its silences: what Alertmanager's GETs list. */
export async function unresolvedAlerts(scope: AlertScope, now = new Date()): Promise<AlertRow[]> {
  const db = await getDb();
  return db
    .select(selection(now))
    .from(t.alerts)
    .where(and(inProject(scope), gt(t.alerts.endsAt, now)))
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
  const keptFrom = new Date(now.getTime() - alertRetentionSeconds() * 1000);
  const [row] = await db
    .select(selection(now))
    .from(t.alerts)
    .where(and(inProject(scope), eq(t.alerts.fingerprint, fingerprint), gt(t.alerts.endsAt, keptFrom)));
  return row ? toAlert(row, now) : null;
}

type Position = { at: Date; fingerprint: string };

function encodeAlertCursor(p: Position): string {
  return Buffer.from(JSON.stringify({ at: p.at.toISOString(), fp: p.fingerprint })).toString('base64url');
}

function decodeAlertCursor(cursor: string): Position {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { at: string; fp: string };
    const at = new Date(v.at);
    if (typeof v.fp !== 'string' || !/^[0-9a-f]{16}$/.test(v.fp) || Number.isNaN(at.getTime())) throw new Error();
    return { at, fingerprint: v.fp };
  } catch {
    throw new ApiError('invalid_cursor');
  }
}

function stateCondition(states: AlertState[], now: Date): SQL | undefined {
  const keptFrom = new Date(now.getTime() - alertRetentionSeconds() * 1000);
  const of: Record<AlertState, SQL> = {
    resolved: and(lte(t.alerts.endsAt, now), gt(t.alerts.endsAt, keptFrom))!,
    firing: and(gt(t.alerts.endsAt, now), sql`not ${muted(now)}`)!,
    silenced: and(gt(t.alerts.endsAt, now), muted(now))!,
  };
  const set = new Set(states);
  if (set.has('firing') && set.has('silenced'))
    return or(gt(t.alerts.endsAt, now), set.has('resolved') ? of.resolved : undefined);
  return or(...[...set].map((s) => of[s]));
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
  const db = await getDb();
  const states = query.state?.length ? query.state : (['firing', 'silenced'] as AlertState[]);
  const passes = labelSetTest(query.filters);
  const search = query.q
    ? sql`(${t.alerts.labels}::text || ' ' || ${t.alerts.annotations}::text) ilike ${containsPattern(query.q)}`
    : undefined;
  // `=` filters go to the database (the labels' GIN index); when they are all there is, every row read passes, so a
  // page reads one more than it shows instead of batches of SCAN.
  const equal = query.filters.filter((m) => m.op === '=' && m.value !== '');
  const narrowed = equal.length
    ? sql`${t.alerts.labels} @> ${JSON.stringify(Object.fromEntries(equal.map((m) => [m.label, m.value])))}::jsonb`
    : undefined;
  const batch = equal.length === query.filters.length ? query.limit + 1 : SCAN;
  let position = query.cursor ? decodeAlertCursor(query.cursor) : null;
  const found: AlertRow[] = [];
  for (;;) {
    const after = position
      ? sql`(${t.alerts.startsAt}, ${t.alerts.fingerprint}) < (${position.at.toISOString()}::timestamptz, ${position.fingerprint})`
      : undefined;
    const rows = await db
      .select(selection(now))
      .from(t.alerts)
      .where(and(inProject(scope), stateCondition(states, now), search, narrowed, after))
      .orderBy(desc(t.alerts.startsAt), desc(t.alerts.fingerprint))
      .limit(batch);
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
    nextCursor: more && end ? encodeAlertCursor({ at: end.startsAt, fingerprint: end.fingerprint }) : null,
  };
}
