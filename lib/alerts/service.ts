import { and, count, gt, inArray, sql } from 'drizzle-orm';
import { getDb, type Tx } from '../db/client';
import * as t from '../db/schema';
import { log } from '../observability/log';
import { lockProjectMuting } from '../silences/muting-service';
import { MAX_ALERT_BYTES } from './limits';
import { mergeTimes, type AlertTimes } from './merge';
import { alertsReceived, alertsRefused, mutingSeconds } from './metrics';
import { relinkAlerts } from './muting-service';
import { notifyTransitions } from './notify-service';
import type { ReceivedAlert } from './schema';
import { settings } from '../settings/settings';
import { projectWhere } from '../db/statement';

export type AlertScope = { organizationId: string; projectId: string };

/** An alert not stored, and why, in words the sender reads in the 400. */
export type AlertRefusal = { index: number; labels: Record<string, string>; reason: string };

type Row = typeof t.alerts.$inferInsert;

function rowOf(scope: AlertScope, sent: ReceivedAlert, times: AlertTimes, now: Date): Row {
  return {
    ...scope,
    fingerprint: sent.fingerprint,
    labels: sent.labels,
    annotations: sent.annotations,
    generatorUrl: sent.generatorUrl,
    ...times,
    updatedAt: now,
    sizeBytes: sent.sizeBytes,
  };
}

async function countUnresolved(tx: Tx, scope: AlertScope, now: Date): Promise<number> {
  const [{ unresolved }] = await tx
    .select({ unresolved: count() })
    .from(t.alerts)
    .where(and(projectWhere(t.alerts, scope), gt(t.alerts.endsAt, now)));
  return unresolved;
}

/**
 * Stores a posted batch in one transaction: each alert merged with the stored one of its fingerprint as
 * Alertmanager does, then the links to the silences that match it. Refused out loud, the rest stored: an alert over
 * MAX_ALERT_BYTES, and one that would start firing while the project already has its limit of unresolved alerts
 * (an alert already unresolved is always updated).
 */
export async function storeAlerts(scope: AlertScope, received: ReceivedAlert[], now = new Date()) {
  const refused: AlertRefusal[] = [];
  const refuse = (a: ReceivedAlert, reason: string, metric: 'too_big' | 'too_many') => {
    refused.push({ index: a.index, labels: a.labels, reason });
    alertsRefused.inc({ reason: metric });
  };
  const fitting = received.filter((a) => {
    if (a.sizeBytes <= MAX_ALERT_BYTES) return true;
    refuse(a, `alert too big: ${a.sizeBytes} bytes, the limit is ${MAX_ALERT_BYTES}`, 'too_big');
    return false;
  });
  if (fitting.length === 0) return { stored: 0, refused };

  const limit = settings().ALERTS_MAX_PER_PROJECT;
  const db = await getDb();
  const stored = await db.transaction(async (tx) => {
    await lockProjectMuting(tx, scope);
    const fingerprints = [...new Set(fitting.map((a) => a.fingerprint))];
    const existing = await tx
      .select()
      .from(t.alerts)
      .where(and(projectWhere(t.alerts, scope), inArray(t.alerts.fingerprint, fingerprints)));
    // The project's count (a scan of its unresolved alerts) only decides an alert that would start firing: a resend
    // of alerts already firing skips it. Read before any write of the batch, as the batch's moves are added to it.
    let unresolved: number | undefined;
    let moved = 0;
    const rows = new Map<string, Row>(existing.map((r) => [r.fingerprint, r]));
    const changed = new Set<string>();
    for (const sent of fitting) {
      const old = rows.get(sent.fingerprint);
      const times = mergeTimes(old as AlertTimes | undefined, sent, now);
      const was = old !== undefined && old.endsAt > now;
      const is = times.endsAt > now;
      if (!was && is) {
        unresolved ??= await countUnresolved(tx, scope, now);
        const firing = unresolved + moved;
        if (firing >= limit) {
          refuse(sent, `too many alerts: the project has ${firing} unresolved, the limit is ${limit}`, 'too_many');
          continue;
        }
      }
      moved += Number(is) - Number(was);
      rows.set(sent.fingerprint, rowOf(scope, sent, times, now));
      changed.add(sent.fingerprint);
    }
    const writes = [...changed].map((fp) => rows.get(fp)!);
    if (writes.length === 0) return 0;
    // An alert that resolved by the clock and fires again: its old firing's end is sent before the merge.
    const ended = existing.filter((r) => r.endsAt <= now && (r.audible || r.firingNotifiedAt !== null));
    await notifyTransitions(
      tx,
      scope,
      ended.filter((r) => changed.has(r.fingerprint)).map((r) => r.fingerprint),
      now,
    );
    const excluded = (column: string) => sql.raw(`excluded.${column}`);
    await tx
      .insert(t.alerts)
      .values(writes)
      .onConflictDoUpdate({
        target: [t.alerts.organizationId, t.alerts.projectId, t.alerts.fingerprint],
        set: {
          labels: excluded('labels'),
          annotations: excluded('annotations'),
          generatorUrl: excluded('generator_url'),
          startsAt: excluded('starts_at'),
          endsAt: excluded('ends_at'),
          endsByTimeout: excluded('ends_by_timeout'),
          updatedAt: excluded('updated_at'),
          sizeBytes: excluded('size_bytes'),
        },
      });
    const done = mutingSeconds.startTimer({ work: 'alerts' });
    await relinkAlerts(
      tx,
      scope,
      writes.map((w) => ({ fingerprint: w.fingerprint, labels: w.labels, endsAt: w.endsAt })),
      now,
    );
    await notifyTransitions(tx, scope, [...changed], now);
    done();
    return writes.length;
  });
  alertsReceived.inc(stored);
  if (refused.length > 0)
    log.warn({ ...scope, stored, refused: refused.length, first: refused[0].reason }, 'alerts refused');
  return { stored, refused };
}
