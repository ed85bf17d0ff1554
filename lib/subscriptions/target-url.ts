import ipaddr from 'ipaddr.js';

export const MAX_TARGET_URL_LENGTH = 2048;

/** The only address ranges a delivery may be sent to: public unicast. Everything else is internal or special. */
function isPublicAddress(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (address.kind() === 'ipv6') {
    const v6 = address as ipaddr.IPv6;
    // [::ffff:127.0.0.1] reaches 127.0.0.1: judge the IPv4 address it carries.
    if (v6.isIPv4MappedAddress()) return isPublicAddress(v6.toIPv4Address());
    return v6.range() === 'unicast';
  }
  return (address as ipaddr.IPv4).range() === 'unicast';
}

/** The authority as written (before the URL parser tidies it), to see user-info even when it is empty (`https://@host/`). */
function rawAuthority(value: string): string {
  const rest = value.slice('https://'.length);
  const end = rest.search(/[/\\?#]/);
  return end === -1 ? rest : rest.slice(0, end);
}

/**
 * Why an https target URL is refused, or null when it is acceptable: absolute `https://`, at most 2048
 * characters, no user-info, and a host that is not an internal address literal. The WHATWG parser (the
 * same in browser and server) normalizes `https://2130706433/` and `https://127.1/` to `127.0.0.1`
 * first, so every spelling of an address is judged as the address it reaches.
 */
export function httpsUrlProblem(value: string): string | null {
  if (value.length > MAX_TARGET_URL_LENGTH) return `The URL must be at most ${MAX_TARGET_URL_LENGTH} characters.`;
  if (!/^https:\/\//i.test(value)) return 'The URL must be absolute and start with https://.';
  if (/[\s\u0000-\u001f\u007f]/.test(value)) return 'The URL must not contain spaces or control characters.';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'Enter a valid absolute URL, such as https://hooks.example.com/orders.';
  }
  if (url.protocol !== 'https:') return 'The URL must be absolute and start with https://.';
  if (rawAuthority(value).includes('@') || url.username || url.password)
    return 'The URL must not contain a user name or password.';
  const host = url.hostname.toLowerCase();
  if (/(^|\.)localhost\.?$/.test(host)) return 'The URL must not point at this machine (localhost).';
  const literal = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (literal !== host ? ipaddr.IPv6.isValid(literal) : ipaddr.IPv4.isValidFourPartDecimal(literal)) {
    if (!isPublicAddress(ipaddr.parse(literal))) {
      return 'The URL must not point at a loopback, private, link-local or other internal address.';
    }
  }
  return null;
}
