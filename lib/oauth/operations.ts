import { CONSOLE_SESSION, defineOperation, type Operation } from '../pipeline/operation';
import { deviceAuthorization, userCodeParams } from './schema';

const credentialRefusal =
  'Device logins can only be viewed, approved or denied by a signed-in console session, not with a token or API key.';

const sessionOnly =
  'Only a signed-in console session may do this: API keys and OAuth tokens get 403, so a token can never approve more tokens.';

/** What every device-login operation shares: a console session's own decision, on the code the device shows. */
const deviceLogin = {
  tags: ['Device login'],
  scope: 'none',
  credentials: CONSOLE_SESSION,
  credentialRefusal,
} satisfies Partial<Operation>;

export const getDeviceAuthorizationOp = defineOperation({
  method: 'GET',
  path: '/v1/device-authorizations/{userCode}',
  summary: 'A device login waiting for approval, by the code the device shows',
  description: `${sessionOnly} Unknown, expired or already decided codes: 404.`,
  ...deviceLogin,
  self: {},
  params: userCodeParams,
  success: { status: 200, description: 'The pending login.', schema: deviceAuthorization },
});

export const approveDeviceAuthorizationOp = defineOperation({
  method: 'POST',
  path: '/v1/device-authorizations/{userCode}/approve',
  summary: 'Approve a device login: the device then receives tokens acting as you',
  description: sessionOnly,
  ...deviceLogin,
  sudo: true,
  self: {},
  params: userCodeParams,
  success: { status: 200, description: 'The login, approved.', schema: deviceAuthorization },
});

export const denyDeviceAuthorizationOp = defineOperation({
  method: 'POST',
  path: '/v1/device-authorizations/{userCode}/deny',
  summary: 'Deny a device login: the device is told access_denied',
  description: sessionOnly,
  ...deviceLogin,
  self: {},
  params: userCodeParams,
  success: { status: 200, description: 'The login, denied.', schema: deviceAuthorization },
});

export const deviceAuthorizationOperations = [
  getDeviceAuthorizationOp,
  approveDeviceAuthorizationOp,
  denyDeviceAuthorizationOp,
];
