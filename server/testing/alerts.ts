import { fingerprintOf } from '../../lib/alerts/fingerprint';
import type { ReceivedAlert } from '../../lib/alerts/schema';
import { SYSTEM_ACTOR } from '../../lib/audit/source';
import type { AuditSource } from '../../lib/db/audit-types';

/** What unit tests record their silence writes as: the system, one request id. */
export const TEST_SOURCE: AuditSource = {
  actor: SYSTEM_ACTOR,
  context: { requestId: 'req_1', ip: null, userAgent: null },
};

/** A user no table holds, as the principal of silence writes in unit tests. */
export const testPrincipal = () => ({ type: 'user' as const, id: crypto.randomUUID() });

/**
 * An alert as the Alertmanager API hands it to `storeAlerts` (after its parsing), with the fingerprint of its labels;
 * `fields` sets its times and anything else a test needs.
 */
export function receivedAlert(
  labels: Record<string, string>,
  fields: Pick<ReceivedAlert, 'startsAt' | 'endsAt'> & Partial<Omit<ReceivedAlert, 'labels' | 'fingerprint'>>,
): ReceivedAlert {
  return {
    labels,
    annotations: {},
    generatorUrl: '',
    endsByTimeout: false,
    fingerprint: fingerprintOf(labels),
    sizeBytes: 10,
    index: 0,
    ...fields,
  };
}
