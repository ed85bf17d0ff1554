import { settings } from '../settings/settings';
/**
 * Where the app is, as browsers and clients see it, and who is calling: the one place that reads APP_URL,
 * NEXTAUTH_URL, ALLOWED_ORIGINS, TRUST_PROXY and the forwarded headers.
 */

/** Forwarded headers (X-Forwarded-For, -Host, -Proto) are believed only when a proxy in front sets them. */
export function trustProxy(): boolean {
  return trustedProxyCount() > 0;
}

/** How many proxies stand in front (TRUST_PROXY: `true` is one, N is N, unset none). */
export function trustedProxyCount(): number {
  return settings().TRUST_PROXY;
}

/** The configured public origin (APP_URL, else NEXTAUTH_URL), or null. */
export function configuredOrigin(): string | null {
  const url = settings().APP_URL || settings().NEXTAUTH_URL;
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
  for (const origin of settings().ALLOWED_ORIGINS) origins.add(origin.replace(/\/$/, ''));
  return origins;
}

/** The header scripts/start.mjs sets from the socket: "<per-process nonce> <address>", unforgeable by clients. */
export const PEER_HEADER = 'x-svc-peer';

/**
 * The client's address for per-address limits and keys' `allowedIps`: under TRUST_PROXY=N the Nth
 * X-Forwarded-For entry from the right, the one the outermost trusted proxy appended (entries to its left were
 * written by the client and prove nothing); else the connection's own address, X-Forwarded-For ignored.
 */
export function clientAddress(headers: Headers): string {
  const proxies = trustedProxyCount();
  if (proxies > 0) {
    const entries = (headers.get('x-forwarded-for') ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    // Fewer entries than proxies: the request skipped some, and the leftmost was still written by one of ours.
    const appended = entries[Math.max(0, entries.length - proxies)];
    if (appended) return appended;
  }
  const [nonce, address] = (headers.get(PEER_HEADER) ?? '').split(' ');
  return nonce && nonce === settings().SVC_PEER_NONCE && address ? address : 'unknown';
}
