import { DEVICE_GRANT_TYPE } from '@/lib/oauth/codes';
import { oauthEndpoint } from '@/lib/oauth/http';
import { exchangeDeviceCode, OAuthError, refreshTokens } from '@/lib/oauth/service';

export const dynamic = 'force-dynamic';

/** RFC 6749 §4.5 / RFC 8628 §3.4: device-code polling and refresh-token rotation. */
export const POST = oauthEndpoint('token', async (form, context) => {
  const grantType = form.get('grant_type');
  if (grantType === DEVICE_GRANT_TYPE)
    return { body: await exchangeDeviceCode(form.get('device_code'), form.get('client_id')) };
  if (grantType === 'refresh_token')
    return { body: await refreshTokens(form.get('refresh_token'), form.get('client_id'), context) };
  if (!grantType) throw new OAuthError('invalid_request', 'grant_type is required.');
  throw new OAuthError('unsupported_grant_type', `grant_type must be ${DEVICE_GRANT_TYPE} or refresh_token.`);
});
