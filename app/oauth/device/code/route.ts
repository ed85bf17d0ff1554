import type { NextRequest } from 'next/server';
import { oauthEndpoint } from '@/lib/oauth/http';
import { publicOrigin } from '@/lib/http/public-origin';
import { createDeviceAuthorization } from '@/lib/oauth/service';

export const dynamic = 'force-dynamic';

/** RFC 8628 §3.1–3.2: the device authorization request. */
export async function POST(req: NextRequest): Promise<Response> {
  return oauthEndpoint('device authorization', async (form) => {
    const { deviceCode, userCode, expiresIn, interval } = await createDeviceAuthorization(form.get('client_id'));
    const verificationUri = `${publicOrigin(req)}/device`;
    return {
      body: {
        device_code: deviceCode,
        user_code: userCode,
        verification_uri: verificationUri,
        verification_uri_complete: `${verificationUri}?user_code=${userCode}`,
        expires_in: expiresIn,
        interval,
      },
    };
  })(req);
}
