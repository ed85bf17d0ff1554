import { CONSOLE_SESSION, defineOperation } from '../pipeline/operation';
import {
  addPasskeyBody,
  confirmTotpBody,
  passkeyParams,
  passkeyAdded,
  recoveryCodesResponse,
  security,
  sudoBody,
  sudoGranted,
  totpEnrolment,
  webauthnOptions,
} from './schema';

const me = {
  tags: ['Second factor'],
  scope: 'none' as const,
  credentials: CONSOLE_SESSION,
  self: {},
  credentialRefusal: 'Second factors and sudo belong to a console session; sign in to the console.',
};

export const getSecurityOp = defineOperation({
  ...me,
  method: 'GET',
  path: '/v1/me/security',
  summary: "The caller's second factors and sudo window",
  description: 'Whether TOTP is on, the passkeys, how many recovery codes are left and when the sudo window closes.',
  success: { status: 200, description: 'The security summary.', schema: security },
});

export const grantSudoOp = defineOperation({
  ...me,
  method: 'POST',
  path: '/v1/me/sudo',
  summary: 'Confirm it is you (sudo)',
  description:
    'Opens the sudo window of this session for `SUDO_WINDOW_SECONDS` (default 900) with exactly one of: the password, ' +
    'a TOTP or recovery code, or a passkey assertion (from `POST /v1/auth/passkey/options`). A wrong one is 401 and ' +
    'counts against the sign-in limits (429 past them). Audited as `sudo.granted`.',
  body: sudoBody,
  success: { status: 200, description: 'The window is open.', schema: sudoGranted },
});

export const startTotpOp = defineOperation({
  ...me,
  method: 'POST',
  path: '/v1/me/totp',
  summary: 'Start enrolling an authenticator app (TOTP)',
  description:
    'A new secret (SHA-1, 6 digits, 30 s), pending until confirmed; a pending one is replaced. TOTP already on: 409.',
  sudo: true,
  success: { status: 201, description: 'The secret, shown once.', schema: totpEnrolment },
  errors: ['second_factor_state_conflict'],
});

export const confirmTotpOp = defineOperation({
  ...me,
  method: 'POST',
  path: '/v1/me/totp/confirm',
  summary: 'Turn TOTP on with a code from the app',
  description:
    'A wrong code is 400 at `code`. With the first second factor come ten recovery codes, shown once (stored hashed); ' +
    'a user who already has codes gets an empty list.',
  body: confirmTotpBody,
  success: { status: 200, description: 'TOTP is on.', schema: recoveryCodesResponse },
  errors: ['second_factor_state_conflict'],
});

export const disableTotpOp = defineOperation({
  ...me,
  method: 'DELETE',
  path: '/v1/me/totp',
  summary: 'Turn TOTP off',
  description: 'With no second factor left, the recovery codes go too. Not on: 404.',
  sudo: true,
  success: { status: 204, description: 'TOTP is off.' },
});

export const regenerateRecoveryCodesOp = defineOperation({
  ...me,
  method: 'POST',
  path: '/v1/me/recovery-codes',
  summary: 'Replace the recovery codes',
  description: 'Ten new codes, shown once; the old ones stop working. Without a second factor: 409.',
  sudo: true,
  success: { status: 200, description: 'The new codes.', schema: recoveryCodesResponse },
  errors: ['second_factor_state_conflict'],
});

export const passkeyOptionsOp = defineOperation({
  ...me,
  method: 'POST',
  path: '/v1/me/passkeys/options',
  summary: 'Options to create a passkey',
  description:
    'WebAuthn creation options (JSON, base64url) for `navigator.credentials.create`; the challenge works once.',
  sudo: true,
  success: { status: 200, description: 'The creation options.', schema: webauthnOptions },
});

export const addPasskeyOp = defineOperation({
  ...me,
  method: 'POST',
  path: '/v1/me/passkeys',
  summary: 'Add a passkey',
  description:
    'Verifies the authenticator response to the options just issued (origin and RP ID of `NEXTAUTH_URL`). ' +
    'A response that does not check out is 400 at `response`.',
  sudo: true,
  body: addPasskeyBody,
  success: { status: 201, description: 'The passkey, and recovery codes with a first factor.', schema: passkeyAdded },
});

export const removePasskeyOp = defineOperation({
  ...me,
  method: 'DELETE',
  path: '/v1/me/passkeys/{passkeyId}',
  summary: 'Remove a passkey',
  sudo: true,
  params: passkeyParams,
  success: { status: 204, description: 'Removed.' },
});

export const passkeySignInOptionsOp = defineOperation({
  method: 'POST',
  path: '/v1/auth/passkey/options',
  summary: 'Options to sign in with a passkey',
  description:
    'Anonymous: WebAuthn request options for any passkey of this site. The assertion then goes to the sign-in ' +
    "provider `passkey` (field `response`). Limited per client address like device login's anonymous endpoints.",
  tags: ['Second factor'],
  scope: 'none',
  credentials: 'public',
  success: { status: 200, description: 'The request options; the challenge works once.', schema: webauthnOptions },
  errors: ['too_many_requests'],
});

export const secondFactorOperations = [
  passkeySignInOptionsOp,
  getSecurityOp,
  grantSudoOp,
  startTotpOp,
  confirmTotpOp,
  disableTotpOp,
  regenerateRecoveryCodesOp,
  passkeyOptionsOp,
  addPasskeyOp,
  removePasskeyOp,
];
