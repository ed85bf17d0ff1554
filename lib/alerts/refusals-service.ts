import { and, count, desc, eq, gt, sum } from 'drizzle-orm';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { lastPostAt } from './posts-service';
import type { AlertScope } from './service';
import { settings } from '../settings/settings';

/** How many batches the Alerts page names; older ones count in the total only. */
const LATEST = 5;

/** Remembers a batch with refused alerts, so the project's Alerts page can say so (its first reason, no labels). */
export async function recordRefusals(scope: AlertScope, refused: { reason: string }[], now: Date): Promise<void> {
  if (refused.length === 0) return;
  const db = await getDb();
  await db.insert(t.alertRefusals).values({ ...scope, at: now, refused: refused.length, reason: refused[0].reason });
}

/**
 * What the project's Alertmanager API received lately: when the last post arrived, and the refusals within
 * ALERT_RETENTION_SECONDS (how many alerts, in how many batches, and the latest).
 */
export async function listRefusals(scope: AlertScope, now = new Date()) {
  const db = await getDb();
  const since = new Date(now.getTime() - settings().ALERT_RETENTION_SECONDS * 1000);
  const where = and(
    eq(t.alertRefusals.organizationId, scope.organizationId),
    eq(t.alertRefusals.projectId, scope.projectId),
    gt(t.alertRefusals.at, since),
  );
  const [[totals], latest, last] = await Promise.all([
    db
      .select({ alerts: sum(t.alertRefusals.refused).mapWith(Number), batches: count() })
      .from(t.alertRefusals)
      .where(where),
    db
      .select({ at: t.alertRefusals.at, refused: t.alertRefusals.refused, reason: t.alertRefusals.reason })
      .from(t.alertRefusals)
      .where(where)
      .orderBy(desc(t.alertRefusals.at))
      .limit(LATEST),
    lastPostAt(scope),
  ]);
  return {
    since: since.toISOString(),
    lastPostAt: last,
    alerts: totals.alerts ?? 0,
    batches: totals.batches,
    latest: latest.map((r) => ({ ...r, at: r.at.toISOString() })),
  };
}
