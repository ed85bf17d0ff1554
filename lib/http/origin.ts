import { ApiError } from './errors';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function allowedOrigins(req: Request): Set<string> {
  const origins = new Set<string>();
  const host = req.headers.get('x-forwarded-host') ?? req.headers.get('host');
  const proto = req.headers.get('x-forwarded-proto') ?? new URL(req.url).protocol.replace(':', '');
  // The origin the app is being served from, as the browser sees it.
  if (host) origins.add(`${proto}://${host}`);
  for (const url of [process.env.APP_URL, process.env.NEXTAUTH_URL]) {
    if (url) origins.add(new URL(url).origin);
  }
  for (const origin of (process.env.ALLOWED_ORIGINS ?? '').split(',')) {
    if (origin.trim()) origins.add(origin.trim().replace(/\/$/, ''));
  }
  return origins;
}

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
