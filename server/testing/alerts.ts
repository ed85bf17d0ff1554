import { fingerprintOf } from '../../lib/alerts/fingerprint';
import type { ReceivedAlert } from '../../lib/alerts/schema';
import type { AlertScope } from '../../lib/alerts/service';
import { SYSTEM_ACTOR } from '../../lib/audit/source';
import type { AuditSource } from '../../lib/db/audit-types';
import { createSilence } from '../../lib/silences/lifecycle-service';
import type { CreateSilenceBody } from '../../lib/silences/schema';

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

/**
 * Creates a silence at `now` as unit tests write them (the system, a user no table holds). The test registers the
 * hooks first (server/hooks.ts): a silence write reaches the alerts it mutes through them.
 */
export const createTestSilence = (scope: AlertScope, now: Date, body: CreateSilenceBody) =>
  createSilence({ scope, principal: testPrincipal(), source: TEST_SOURCE, now, body });
