import ipaddr from 'ipaddr.js';

export const MAX_TARGET_URL_LENGTH = 2048;

const v4 = (hi: number, lo: number) => ipaddr.IPv4.parse(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
const startsWith = (parts: number[], prefix: number[]) => prefix.every((part, i) => parts[i] === part);

/**
 * The IPv4 address an IPv6 literal carries, for every form that routes to it: IPv4-compatible `::a.b.c.d`,
 * IPv4-mapped `::ffff:a.b.c.d`, SIIT `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::/96` and `64:ff9b:1::/48`,
 * 6to4 `2002:aabb:ccdd::/16`, and Teredo `2001:0::/32` (its client address is stored inverted).
 */
export function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = address.parts;
  if (startsWith(p, [0, 0, 0, 0, 0]) && (p[5] === 0 || p[5] === 0xffff)) return v4(p[6], p[7]);
  if (startsWith(p, [0, 0, 0, 0, 0xffff, 0])) return v4(p[6], p[7]);
  if (startsWith(p, [0x64, 0xff9b, 0, 0, 0, 0]) || startsWith(p, [0x64, 0xff9b, 1])) return v4(p[6], p[7]);
  if (p[0] === 0x2002) return v4(p[1], p[2]);
  if (p[0] === 0x2001 && p[1] === 0) return v4(p[6] ^ 0xffff, p[7] ^ 0xffff);
  return null;
}

/** The only address ranges a delivery may be sent to: public unicast. Everything else is internal or special. */
export function isPublicAddress(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (address.kind() === 'ipv4') return (address as ipaddr.IPv4).range() === 'unicast';
  // [::127.0.0.1] or [64:ff9b::10.0.0.1] reaches the IPv4 address inside: judge that one too.
  const inner = embeddedIPv4(address as ipaddr.IPv6);
  if (inner && !isPublicAddress(inner)) return false;
  return (address as ipaddr.IPv6).range() === 'unicast';
}

/** The authority as written (before the URL parser tidies it), to see user-info even when it is empty (`https://@host/`). */
function rawAuthority(value: string): string {
  const rest = value.slice('https://'.length);
  const end = rest.search(/[/\\?#]/);
  return end === -1 ? rest : rest.slice(0, end);
}

/**
 * Whether the parser kept the authority as written (up to letter case and the default port). Anything it
 * rewrites (percent-escapes, full-width digits, numeric IPv4 forms, Unicode host names) is a place where
 * another parser could see a different host, so such a URL is refused rather than silently changed.
 */
function authorityKept(raw: string, url: URL): boolean {
  const written = raw.toLowerCase();
  return written === url.host || written === `${url.host}:443`;
}

/**
 * Why an https target URL is refused, or null when it is acceptable: absolute `https://`, at most 2048
 * characters, a host as written (no user-info, no backslash, nothing the WHATWG parser rewrites), and
 * not an internal address literal. The parser runs first, so `https://2130706433/` is judged as 127.0.0.1.
 */
export function httpsUrlProblem(value: string): string | null {
  if (value.length > MAX_TARGET_URL_LENGTH) return `The URL must be at most ${MAX_TARGET_URL_LENGTH} characters.`;
  if (!/^https:\/\//i.test(value)) return 'The URL must be absolute and start with https://.';
  if (/[\s\u0000-\u001f\u007f]/.test(value)) return 'The URL must not contain spaces or control characters.';
  // WHATWG reads `\` as `/` in https URLs, other parsers do not: `https://a.example\@127.0.0.1/` has two hosts.
  if (value.includes('\\')) return 'The URL must not contain a backslash; use / in paths.';
  const raw = rawAuthority(value);
  if (raw === '') return 'The URL needs a host name after https://.';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'Enter a valid absolute URL, such as https://hooks.example.com/orders.';
  }
  if (url.protocol !== 'https:') return 'The URL must be absolute and start with https://.';
  if (raw.includes('@') || url.username || url.password) return 'The URL must not contain a user name or password.';
  const host = url.hostname.toLowerCase();
  if (/(^|\.)localhost\.?$/.test(host)) return 'The URL must not point at this machine (localhost).';
  const literal = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (literal !== host ? ipaddr.IPv6.isValid(literal) : ipaddr.IPv4.isValidFourPartDecimal(literal)) {
    if (!isPublicAddress(ipaddr.parse(literal))) {
      return 'The URL must not point at a loopback, private, link-local or other internal address.';
    }
  }
  if (!authorityKept(raw, url))
    return `Write the host as the URL parser reads it (${url.host}): no escapes, Unicode or numeric shorthands.`;
  return null;
}
