import { oauthEndpoint } from '@/lib/oauth/http';
import { revokeToken } from '@/lib/oauth/service';

export const dynamic = 'force-dynamic';

/** RFC 7009: revokes the login the token belongs to; answers 200 even for a token it does not know. */
export const POST = oauthEndpoint('revoke', async (form, context) => {
  await revokeToken(form.get('token'), form.get('client_id'), context);
  return { body: {} };
});
