import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import * as t from '../db/schema';
import { enqueueWebhookEvents } from '../webhooks/enqueue';
import { alertNotifications } from './metrics';
import type { AlertState } from './schema';
import { alertJson, mutedAt } from './state';

type Scope = { organizationId: string; projectId: string };
type StoredAlert = typeof t.alerts.$inferSelect;

export type AlertEventType = 'alert.firing' | 'alert.resolved';

/**
 * Decides the webhook notifications of these alerts as of `now` and writes them to the outbox, in the caller's
 * transaction, which holds the project's muting lock (`lockProjectMuting`, lib/silences/muting-service.ts): of two
 * instances deciding for one alert, the second reads what the first committed, so each transition is sent once.
 *
 * An alert is audible while it is unresolved and no active silence mutes it. Each time it becomes audible (it
 * starts firing unmuted, or the last silence muting it ends while it still fires) webhooks get `alert.firing`;
 * when it resolves after a firing was sent, they get `alert.resolved`, once, even if a silence matches it by then:
 * a receiver that holds a firing always hears its end. Becoming muted sends nothing. Each transition is one outbox
 * message with a fresh id (the `webhook-id`) for every enabled endpoint subscribed to it, `alert.*` or `*`.
 * Returns how many transitions it sent.
 */
export async function notifyTransitions(tx: Tx, scope: Scope, fingerprints: string[], now: Date): Promise<number> {
  if (fingerprints.length === 0) return 0;
  const at = now.toISOString();
  const rows = await tx
    .select({ row: t.alerts, muted: mutedAt(sql`${at}::timestamptz`) })
    .from(t.alerts)
    .where(
      and(
        eq(t.alerts.organizationId, scope.organizationId),
        eq(t.alerts.projectId, scope.projectId),
        inArray(t.alerts.fingerprint, [...new Set(fingerprints)]),
      ),
    );
  const events: { id: string; type: AlertEventType; payload: unknown }[] = [];
  const moved: { fingerprint: string; audible: boolean; notified: string | null }[] = [];
  const send = (type: AlertEventType, row: StoredAlert, state: AlertState) =>
    events.push({ id: randomUUID(), type, payload: { alert: alertJson(row, state, []), projectId: scope.projectId } });
  for (const { row, muted } of rows) {
    const resolved = row.endsAt <= now;
    const audible = !resolved && !muted;
    // Audible means a firing was sent (becoming audible sends it). The release before this one reset the time on
    // every resend, so during a roll an audible alert may lack it: its end is still owed.
    let notifiedAt = row.firingNotifiedAt?.toISOString() ?? (row.audible ? row.updatedAt.toISOString() : null);
    if (audible && !row.audible) {
      send('alert.firing', row, 'firing');
      notifiedAt = at;
    }
    if (resolved && notifiedAt !== null) {
      send('alert.resolved', row, 'resolved');
      notifiedAt = null;
    }
    if (audible !== row.audible || notifiedAt !== (row.firingNotifiedAt?.toISOString() ?? null))
      moved.push({ fingerprint: row.fingerprint, audible, notified: notifiedAt });
  }
  if (moved.length > 0)
    await tx.execute(sql`update ${t.alerts} a set audible = m.audible, firing_notified_at = m.notified
      from jsonb_to_recordset(${JSON.stringify(moved)}::jsonb) as m(fingerprint text, audible boolean, notified timestamptz)
      where a.organization_id = ${scope.organizationId} and a.project_id = ${scope.projectId}
        and a.fingerprint = m.fingerprint`);
  if (events.length === 0) return 0;
  await enqueueWebhookEvents(tx, scope.organizationId, events, now);
  for (const e of events) alertNotifications.inc({ type: e.type });
  return events.length;
}
