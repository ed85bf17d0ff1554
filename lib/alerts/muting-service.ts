import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import { getDb, type Tx } from '../db/client';
import * as t from '../db/schema';
import { log } from '../observability/log';
import { labelSetTest, type Matcher } from '../silences/matchers';
import { lockProjectMuting } from '../silences/muting-service';
import { alertsNow, mutingLinks, mutingSeconds } from './metrics';
import { notifyTransitions } from './notify-service';
import { queryRows } from '../db/statement';

type Scope = { organizationId: string; projectId: string };
type Link = { fingerprint: string; silenceId: string };

const scoped = (scope: Scope) =>
  and(eq(t.alertSilences.organizationId, scope.organizationId), eq(t.alertSilences.projectId, scope.projectId));

/** The project's alerts or silences that have not ended at `now`. */
const unendedIn = (table: typeof t.alerts | typeof t.silences, scope: Scope, now: Date) =>
  and(eq(table.organizationId, scope.organizationId), eq(table.projectId, scope.projectId), gt(table.endsAt, now));

const keyOf = (l: Link) => `${l.fingerprint} ${l.silenceId}`;

/** Each silence's number of linked alerts, recounted after its links changed. */
async function recount(tx: Tx, silenceIds: string[]): Promise<void> {
  if (silenceIds.length === 0) return;
  await tx
    .update(t.silences)
    .set({
      matchedAlerts: sql`(select count(*)::int from ${t.alertSilences} where ${t.alertSilences.silenceId} = ${t.silences.id})`,
    })
    .where(inArray(t.silences.id, silenceIds));
}

async function deleteLinks(tx: Tx, scope: Scope, links: Link[]): Promise<void> {
  if (links.length === 0) return;
  mutingLinks.inc({ change: 'dropped' }, links.length);
  await tx.execute(sql`delete from ${t.alertSilences} where ${scoped(scope)}
    and (${t.alertSilences.fingerprint}, ${t.alertSilences.silenceId}) in
      (select * from jsonb_to_recordset(${JSON.stringify(links)}::jsonb) as l(fingerprint text, "silenceId" uuid))`);
}

async function insertLinks(tx: Tx, scope: Scope, links: Link[]): Promise<void> {
  if (links.length > 0) mutingLinks.inc({ change: 'added' }, links.length);
  for (let i = 0; i < links.length; i += 1000)
    await tx.insert(t.alertSilences).values(links.slice(i, i + 1000).map((l) => ({ ...scope, ...l })));
}

/**
 * A silence's test for a batch of alerts: its `=` matchers first, as plain string comparisons, and its full matcher
 * code (RE2, compiled on first need) only for an alert they let through, so most tests inside the project's lock are
 * a string comparison, not an RE2 test of every alert against every silence.
 * The full test's answer is kept per combination of the values of the labels it names (absent read as "", as the
 * matchers read it): a batch's alerts share them (a host's 25 alert names), so a regex-only silence tests each
 * host once, not each alert.
 */
function silenceTest(silence: { id: string; matchers: Matcher[] }) {
  const equal = silence.matchers.filter((m) => m.op === '=' && m.value !== '');
  const names = [...new Set(silence.matchers.map((m) => m.label))];
  const valueOf = (labels: Record<string, string>, name: string) => (Object.hasOwn(labels, name) ? labels[name] : '');
  const keyOf = (labels: Record<string, string>) =>
    names.length === 1 ? valueOf(labels, names[0]) : JSON.stringify(names.map((n) => valueOf(labels, n)));
  const answers = new Map<string, boolean>();
  let full: ((labels: Record<string, string>) => boolean) | undefined;
  const fullTest = (labels: Record<string, string>) => {
    const key = keyOf(labels);
    let answer = answers.get(key);
    if (answer === undefined) answers.set(key, (answer = (full ??= labelSetTest(silence.matchers))(labels)));
    return answer;
  };
  return {
    id: silence.id,
    matches: (labels: Record<string, string>) => equal.every((m) => labels[m.label] === m.value) && fullTest(labels),
  };
}

/**
 * Brings the links of just-stored alerts up to date: each unresolved one is tested against every silence of the
 * project that has not ended (a few rows), a resolved one keeps none. Only the links that changed are written,
 * so a Prometheus resend of the same alerts writes nothing here. The caller holds `lockProjectMuting`.
 */
export async function relinkAlerts(
  tx: Tx,
  scope: Scope,
  alerts: { fingerprint: string; labels: Record<string, string>; endsAt: Date }[],
  now: Date,
): Promise<void> {
  if (alerts.length === 0) return;
  const live = await tx
    .select({ id: t.silences.id, matchers: t.silences.matchers })
    .from(t.silences)
    .where(unendedIn(t.silences, scope, now));
  const tests = live.map(silenceTest);
  const wanted = alerts.flatMap((a) =>
    a.endsAt > now
      ? tests.filter((s) => s.matches(a.labels)).map((s) => ({ fingerprint: a.fingerprint, silenceId: s.id }))
      : [],
  );
  const fingerprints = alerts.map((a) => a.fingerprint);
  const before = await tx
    .select({ fingerprint: t.alertSilences.fingerprint, silenceId: t.alertSilences.silenceId })
    .from(t.alertSilences)
    .where(and(scoped(scope), inArray(t.alertSilences.fingerprint, fingerprints)));
  const had = new Set(before.map(keyOf));
  const want = new Set(wanted.map(keyOf));
  const gone = before.filter((l) => !want.has(keyOf(l)));
  const added = wanted.filter((l) => !had.has(keyOf(l)));
  await deleteLinks(tx, scope, gone);
  await insertLinks(tx, scope, added);
  await recount(tx, [...new Set([...gone, ...added].map((l) => l.silenceId))]);
}

/**
 * Links a silence to the unresolved alerts its matchers match, after its matchers or end changed; an ended one
 * keeps none. Its `=` matchers narrow the alerts read (`labels @> …`, the GIN index); the rest are tested here
 * with the silence's own matcher code. Returns how many alerts it matches. A silence write reaches it through the
 * silences' muting hook (lib/silences/muting-service.ts), as it does `renotifySilence`.
 */
export async function relinkSilence(
  tx: Tx,
  scope: Scope,
  silence: { id: string; matchers: Matcher[]; endsAt: Date; matchedAlerts: number },
  now: Date,
  /** A silence just inserted: it has no links yet, and its count is 0. */
  fresh = false,
): Promise<number> {
  await lockProjectMuting(tx, scope);
  const done = mutingSeconds.startTimer({ work: 'silence' });
  const unlinked = fresh
    ? []
    : await tx
        .delete(t.alertSilences)
        .where(and(scoped(scope), eq(t.alertSilences.silenceId, silence.id)))
        .returning({ fingerprint: t.alertSilences.fingerprint });
  let matched: Link[] = [];
  if (silence.endsAt > now) {
    const equal = silence.matchers.filter((m) => m.op === '=' && m.value !== '');
    const contains = Object.fromEntries(equal.map((m) => [m.label, m.value]));
    const candidates = await tx
      .select({ fingerprint: t.alerts.fingerprint, labels: t.alerts.labels })
      .from(t.alerts)
      .where(
        and(
          unendedIn(t.alerts, scope, now),
          equal.length > 0 ? sql`${t.alerts.labels} @> ${JSON.stringify(contains)}::jsonb` : undefined,
        ),
      );
    const matches = labelSetTest(silence.matchers);
    matched = candidates
      .filter((a) => matches(a.labels))
      .map((a) => ({ fingerprint: a.fingerprint, silenceId: silence.id }));
    await insertLinks(tx, scope, matched);
  }
  // The silence write's own statement holds the row; only a count that moved costs another.
  if (matched.length !== silence.matchedAlerts)
    await tx.update(t.silences).set({ matchedAlerts: matched.length }).where(eq(t.silences.id, silence.id));
  await notifyTransitions(
    tx,
    scope,
    [...unlinked, ...matched].map((l) => l.fingerprint),
    now,
  );
  if (unlinked.length > 0) mutingLinks.inc({ change: 'dropped' }, unlinked.length);
  done();
  return matched.length;
}

/**
 * Decides the notifications of the alerts a silence is linked to, after a change of its window alone (its links
 * stay: they ignore the window): a scheduled silence moved to start now mutes them, one moved later unmutes them.
 */
export async function renotifySilence(tx: Tx, scope: Scope, silenceId: string, now: Date): Promise<void> {
  const links = await tx
    .select({ fingerprint: t.alertSilences.fingerprint })
    .from(t.alertSilences)
    .where(and(scoped(scope), eq(t.alertSilences.silenceId, silenceId)));
  await notifyTransitions(
    tx,
    scope,
    links.map((l) => l.fingerprint),
    now,
  );
}

/**
 * The clock's part, in one pass: links of alerts that resolved and of silences that ended are dropped and the
 * silences recounted, so `mutedAlerts` follows the clock within a pass (reads are right meanwhile: they join the
 * links with the silences' windows and skip resolved alerts); and the notifications the clock decides are sent
 * (notify-service.ts): an alert that resolved, one whose last muting silence ended, one a scheduled
 * silence began to mute. One project per transaction, under its lock. Returns how many projects it visited.
 */
export async function followTheClock(now = new Date()): Promise<number> {
  const done = mutingSeconds.startTimer({ work: 'clock' });
  const db = await getDb();
  const at = now.toISOString();
  const ended = (
    l: string,
  ) => sql`exists (select 1 from ${t.alerts} a where a.organization_id = ${sql.raw(l)}.organization_id
      and a.project_id = ${sql.raw(l)}.project_id and a.fingerprint = ${sql.raw(l)}.fingerprint and a.ends_at <= ${at}::timestamptz)
    or exists (select 1 from ${t.silences} s where s.id = ${sql.raw(l)}.silence_id and s.ends_at <= ${at}::timestamptz)`;
  // Audible alerts an active silence now mutes: a scheduled silence began (nothing is sent, but its end will). Only
  // a silence made scheduled can begin by the clock; one made active was decided by its creation.
  const nowMuted = sql`select l.organization_id, l.project_id, l.fingerprint from ${t.silences} s
    join ${t.alertSilences} l on l.silence_id = s.id
    where s.starts_at > s.created_at and s.starts_at <= ${at}::timestamptz and s.ends_at > ${at}::timestamptz
      and exists (select 1 from ${t.alerts} a where a.organization_id = l.organization_id
        and a.project_id = l.project_id and a.fingerprint = l.fingerprint and a.audible and a.ends_at > ${at}::timestamptz)`;
  // Alerts resolved by the clock whose notification state has not followed (alerts_notify_due_idx).
  const resolvedDue = sql`select a.organization_id, a.project_id, a.fingerprint from ${t.alerts} a
    where a.ends_at <= ${at}::timestamptz and (a.audible or a.firing_notified_at is not null)`;
  // The projects with links of ended alerts or silences, found from those (their `ends_at` indexes), not by testing
  // every link: that scan grows with the links and crosses PostgreSQL's JIT threshold (docs/benchmarks.md).
  const scopes = await queryRows<Scope>(
    db,
    sql`select distinct organization_id as "organizationId",
      project_id as "projectId" from (
        select l.organization_id, l.project_id from ${t.alerts} a join ${t.alertSilences} l
          on l.organization_id = a.organization_id and l.project_id = a.project_id and l.fingerprint = a.fingerprint
          where a.ends_at <= ${at}::timestamptz
        union all select l.organization_id, l.project_id from ${t.silences} s join ${t.alertSilences} l
          on l.silence_id = s.id where s.ends_at <= ${at}::timestamptz
        union all select organization_id, project_id from (${resolvedDue}) r
        union all select organization_id, project_id from (${nowMuted}) m
      ) due limit 100`,
  );
  let [droppedLinks, sent] = [0, 0];
  for (const scope of scopes)
    await db.transaction(async (tx) => {
      await lockProjectMuting(tx, scope);
      const ofScope = (x: string) =>
        sql`${sql.raw(x)}.organization_id = ${scope.organizationId} and ${sql.raw(x)}.project_id = ${scope.projectId}`;
      const dropped = await queryRows<Link>(
        tx,
        sql`delete from ${t.alertSilences} l
        where ${ofScope('l')} and (${ended('l')})
        returning l.fingerprint, l.silence_id as "silenceId"`,
      );
      await recount(tx, [...new Set(dropped.map((r) => r.silenceId))]);
      const due = await queryRows<{ fingerprint: string }>(
        tx,
        sql`
        select r.fingerprint from (${resolvedDue}) r where ${ofScope('r')}
        union select m.fingerprint from (${nowMuted}) m where ${ofScope('m')}`,
      );
      mutingLinks.inc({ change: 'dropped' }, dropped.length);
      droppedLinks += dropped.length;
      sent += await notifyTransitions(
        tx,
        scope,
        [...dropped, ...due].map((r) => r.fingerprint),
        now,
      );
    });
  done();
  if (scopes.length > 0) log.info({ projects: scopes.length, droppedLinks, sent }, 'alerts followed the clock');
  const rows = await queryRows<{ firing: number; silenced: number }>(
    db,
    sql`select
      count(*) filter (where audible)::int as firing, count(*) filter (where not audible)::int as silenced
    from ${t.alerts} where ends_at > ${at}::timestamptz`,
  );
  alertsNow.set({ state: 'firing' }, rows[0].firing);
  alertsNow.set({ state: 'silenced' }, rows[0].silenced);
  return scopes.length;
}
