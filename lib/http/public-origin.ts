/**
 * Where the app is, as browsers and clients see it, and who is calling: the one place that reads APP_URL,
 * NEXTAUTH_URL, ALLOWED_ORIGINS, TRUST_PROXY and the forwarded headers.
 */

/** Forwarded headers (X-Forwarded-For, -Host, -Proto) are believed only when a proxy in front sets them. */
export function trustProxy(): boolean {
  return /^(1|true|yes|on)$/i.test(process.env.TRUST_PROXY ?? '');
}

/** The configured public origin (APP_URL, else NEXTAUTH_URL), or null. */
export function configuredOrigin(): string | null {
  const url = process.env.APP_URL || process.env.NEXTAUTH_URL;
  return url ? new URL(url).origin : null;
}

/** The origin the request was sent to: its Host and scheme, or the proxy's forwarded ones under TRUST_PROXY. */
export function requestOrigin(req: Request): string {
  const url = new URL(req.url);
  const forwarded = trustProxy();
  const host = (forwarded && req.headers.get('x-forwarded-host')) || req.headers.get('host') || url.host;
  const proto = (forwarded && req.headers.get('x-forwarded-proto')) || url.protocol.replace(':', '');
  return `${proto.split(',')[0].trim()}://${host.split(',')[0].trim()}`;
}

/** The origin to put in links and URLs the app hands out. */
export function publicOrigin(req: Request): string {
  return configuredOrigin() ?? requestOrigin(req);
}

/** Origins a cookie-authenticated write may come from. */
export function allowedOrigins(req: Request): Set<string> {
  const origins = new Set([requestOrigin(req)]);
  const configured = configuredOrigin();
  if (configured) origins.add(configured);
  for (const origin of (process.env.ALLOWED_ORIGINS ?? '').split(',')) {
    if (origin.trim()) origins.add(origin.trim().replace(/\/$/, ''));
  }
  return origins;
}

/** The header scripts/start.mjs sets from the socket: "<per-process nonce> <address>", unforgeable by clients. */
export const PEER_HEADER = 'x-svc-peer';

/**
 * The client's address for per-address limits: the first X-Forwarded-For entry under TRUST_PROXY, else
 * the connection's own address. Clients can set X-Forwarded-For themselves, so without a proxy it is ignored.
 */
export function clientAddress(headers: Headers): string {
  if (trustProxy()) {
    const first = headers.get('x-forwarded-for')?.split(',')[0]?.trim();
    if (first) return first;
  }
  const [nonce, address] = (headers.get(PEER_HEADER) ?? '').split(' ');
  return nonce && nonce === process.env.SVC_PEER_NONCE && address ? address : 'unknown';
}
