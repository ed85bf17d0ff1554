import type { NextRequest } from 'next/server';
import { ApiError } from '../errors';
import { newRequestId } from '../http/request';
import { publicOrigin } from '../http/public-origin';

const MESSAGE = 'The service is temporarily unavailable. Try again in a few seconds.';

/**
 * 503 with Retry-After, in the error envelope, plus the `url` next-auth's client reads its error from,
 * so the sign-in form shows the reason instead of "incorrect password".
 */
export function unavailableSignIn(req: NextRequest): Response {
  const error = new ApiError('unavailable', MESSAGE, { headers: { 'retry-after': '5' } });
  const url = `${publicOrigin(req)}/api/auth/error?${new URLSearchParams({ error: MESSAGE })}`;
  return new Response(JSON.stringify({ ...error.body(), url }), {
    status: error.status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'x-request-id': newRequestId(),
      ...error.headers,
    },
  });
}
