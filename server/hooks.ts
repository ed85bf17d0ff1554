import { relinkSilence, renotifySilence } from '../lib/alerts/muting-service';
import { outboxFilled } from '../lib/audit/outbox';
import { emailDeliveryLoop } from '../lib/notifications/mailer';
import { emailsQueued } from '../lib/notifications/service';
import { webhookDeliveryLoop } from '../lib/webhooks/worker';
import { registerSignInFactors } from '../lib/auth/sign-in-factors';
import { registerJoinByInvitation } from '../lib/auth/invited-sign-in';
import { joinInvitedBySso } from '../lib/onboarding/sso-join-service';
import { reportDatabaseFigures } from '../lib/observability/metrics';
import { databaseFigures } from '../lib/db/client';
import { registerPipelineHooks } from '../lib/pipeline/hooks';
import { registerSilenceMuting } from '../lib/silences/muting-service';
import { verifyPasskeyAssertion } from '../lib/second-factor/passkey-service';
import { refusedForMissingSecondFactor } from '../lib/second-factor/policy-service';
import { secondFactorsOf, verifySecondFactorCode } from '../lib/second-factor/service';
import { openSudoWindow, outsideSudo } from '../lib/second-factor/sudo-service';

/**
 * Plugs the features into the floors below them (docs/architecture.md, "Floors"): what the pipeline, sign-in,
 * the metrics, silence writes and the queues of webhook deliveries and emails ask of code they must not import. Idempotent; runs when the server module loads.
 */
export function registerHooks(): void {
  registerPipelineHooks({
    refusalInOrganization: async (principal, organizationId) =>
      (await refusedForMissingSecondFactor(principal, organizationId)) ? 'two_factor_required' : null,
    outsideSudo,
  });
  registerSignInFactors({
    required: async (userId) => {
      const factors = await secondFactorsOf(userId);
      return factors.totp || factors.passkeys > 0;
    },
    verifyCode: async (user, code, source) => (await verifySecondFactorCode(user, code, source)) !== null,
    verifyPasskey: (response) => verifyPasskeyAssertion(response, null),
    openSudo: openSudoWindow,
  });
  registerJoinByInvitation(joinInvitedBySso);
  reportDatabaseFigures(databaseFigures);
  registerSilenceMuting({ relinkSilence, renotifySilence });
  // A delivery queued here is sent at once rather than at the loop's next poll.
  outboxFilled.register(() => webhookDeliveryLoop.wake());
  emailsQueued.register(() => emailDeliveryLoop.wake());
}
