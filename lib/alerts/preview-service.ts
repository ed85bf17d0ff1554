import { and, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { labelSetTest, type Matcher } from '../silences/matchers';
import { alertRows, toAlert } from './list-service';
import type { PreviewAnswer } from './schema';
import type { AlertScope } from './service';

export const PREVIEW_ALERTS = 100;

/**
 * The unresolved alerts a draft silence would mute, with the silence's own matching (RE2 anchored, an absent label
 * read as ""): its `=` matchers narrow the rows read through the labels' index, the rest are tested here; only the
 * first 100 are then read whole.
 */
export async function previewSilence(scope: AlertScope, matchers: Matcher[], now = new Date()): Promise<PreviewAnswer> {
  const db = await getDb();
  const equal = matchers.filter((m) => m.op === '=' && m.value !== '');
  const contains = JSON.stringify(Object.fromEntries(equal.map((m) => [m.label, m.value])));
  const candidates = await db
    .select({ fingerprint: t.alerts.fingerprint, labels: t.alerts.labels })
    .from(t.alerts)
    .where(
      and(
        eq(t.alerts.organizationId, scope.organizationId),
        eq(t.alerts.projectId, scope.projectId),
        gt(t.alerts.endsAt, now),
        equal.length > 0 ? sql`${t.alerts.labels} @> ${contains}::jsonb` : undefined,
      ),
    )
    .orderBy(desc(t.alerts.startsAt), desc(t.alerts.fingerprint));
  const matches = labelSetTest(matchers);
  const muted = candidates.filter((a) => matches(a.labels));
  const first = muted.slice(0, PREVIEW_ALERTS).map((a) => a.fingerprint);
  const rows = first.length > 0 ? await alertRows(scope, inArray(t.alerts.fingerprint, first), now) : [];
  const byFingerprint = new Map(rows.map((r) => [r.fingerprint, r]));
  const alerts = first.flatMap((fp) => {
    const row = byFingerprint.get(fp);
    return row ? [toAlert(row, now)] : [];
  });
  return { total: muted.length, alerts };
}
