import { relinkSilence, renotifySilence } from '../lib/alerts/muting-service';
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
 * the metrics and silence writes ask of code they must not import. Idempotent; runs when the server module loads.
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
}
