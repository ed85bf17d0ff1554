import { ApiError } from '../errors';
import { allowedOrigins } from './public-origin';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Cookie-authenticated writes must come from the app's own origin (or one in ALLOWED_ORIGINS).
 * Without an Origin header, only `Sec-Fetch-Site: same-origin` passes. Bearer requests are not checked.
 */
export function checkOrigin(req: Request): void {
  if (!WRITES.has(req.method.toUpperCase())) return;
  const origin = req.headers.get('origin');
  if (origin) {
    if (origin !== 'null' && allowedOrigins(req).has(origin)) return;
  } else if (req.headers.get('sec-fetch-site') === 'same-origin') {
    return;
  }
  throw new ApiError('forbidden_origin');
}
