import { sql, type SQL } from 'drizzle-orm';
import * as t from '../db/schema';
import type { AlertState } from './schema';

// An alert's state as read at a time (its active silences, muted or not) and its JSON, for the list and the webhooks.

type StoredAlert = typeof t.alerts.$inferSelect;

/** An alert as the /v1 API and the webhooks show it (lib/alerts/schema.ts `Alert`). */
export function alertJson(
  row: Omit<StoredAlert, 'audible' | 'firingNotifiedAt'>,
  state: AlertState,
  silencedBy: string[],
) {
  return {
    fingerprint: row.fingerprint,
    labels: row.labels,
    annotations: row.annotations,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    generatorURL: row.generatorUrl,
    state,
    silencedBy,
  };
}

// Qualified by hand: drizzle leaves a one-table select's columns bare, which the subqueries' joins make ambiguous.
const SAME_ALERT = sql.raw(
  'l.organization_id = "alerts"."organization_id" and l.project_id = "alerts"."project_id" and l.fingerprint = "alerts"."fingerprint"',
);

/**
 * The ids of the active silences linked to an alert (the row of `alerts` being read), sorted, as one subquery per
 * row: the links (kept on write) say which silences match; the clock says which of those are active at `at`.
 */
export const silencedByAt = (at: SQL) => sql<string[]>`coalesce((
    select array_agg(l.silence_id::text order by l.silence_id)
    from ${t.alertSilences} l join ${t.silences} s on s.id = l.silence_id
    where ${SAME_ALERT} and s.starts_at <= ${at} and s.ends_at > ${at}
  ), '{}')`;

/** An active silence at `at` is linked to the alert (the row of `alerts` being read): it is muted then. */
export const mutedAt = (at: SQL) => sql<boolean>`exists (
    select 1 from ${t.alertSilences} l join ${t.silences} s on s.id = l.silence_id
    where ${SAME_ALERT} and s.starts_at <= ${at} and s.ends_at > ${at})`;
