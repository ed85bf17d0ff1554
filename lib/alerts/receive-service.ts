import { alertsRefused } from './metrics';
import { recordRefusals } from './refusals-service';
import type { ReceivedAlert } from './schema';
import { storeAlerts, type AlertRefusal, type AlertScope } from './service';

/**
 * Receives a decoded batch (lib/alertmanager reads the protocol's body): counts the alerts the reading refused,
 * stores the rest (`storeAlerts`: merged, muted, notified in one transaction) and remembers the batch's refusals for
 * the project's Alerts page. Returns every refusal, the reading's and the store's, in the batch's order.
 */
export async function receiveAlerts(
  scope: AlertScope,
  batch: { alerts: ReceivedAlert[]; refused: AlertRefusal[] },
  now = new Date(),
): Promise<AlertRefusal[]> {
  if (batch.refused.length > 0) alertsRefused.inc({ reason: 'invalid' }, batch.refused.length);
  const { refused } = await storeAlerts(scope, batch.alerts, now);
  const all = [...batch.refused, ...refused].sort((a, b) => a.index - b.index);
  await recordRefusals(scope, all, now);
  return all;
}
