import { recordPost } from '../alerts/posts-service';
import { receiveAlerts } from '../alerts/receive-service';
import type { AlertScope } from '../alerts/service';
import { labelsText, parseAlertsBody } from './alerts-body';
import { amJson } from './route';

/**
 * `POST /alerts`: Alertmanager's three answers (400 object, 422 object, or the valid alerts stored and a 400
 * string naming each refused one), with this project's limits said in the same string.
 */
export async function postAlerts(scope: AlertScope, bodyText: string, now = new Date()): Promise<Response> {
  const parsed = parseAlertsBody(bodyText, now);
  const all = parsed.kind === 'alerts' ? await receiveAlerts(scope, parsed, now) : [];
  // Whatever its fate, a post says a sender reaches this project: its Alerts page shows when the last one came. It
  // is noted after what it brought is stored, so a page that sees the time and refreshes its lists sees the alerts.
  await recordPost(scope, now);
  if (parsed.kind === 'undecodable') return amJson({ code: 400, message: parsed.message }, 400);
  if (parsed.kind === 'schema') return amJson({ code: 602, message: parsed.message }, 422);
  // Alertmanager's 200 has no body.
  if (all.length === 0) return new Response(null, { status: 200, headers: { 'content-type': 'application/json' } });
  return amJson(all.map((r) => `alert ${r.index} ${labelsText(r.labels)}: ${r.reason}`).join('; '), 400);
}
