import ipaddr from 'ipaddr.js';

/**
 * IPv4/IPv6 ranges as keys and the organization key policy take them: `203.0.113.0/24`, `2001:db8::/32`, or a
 * bare address (/32 or /128). IPv4-mapped IPv6 (`::ffff:198.51.100.7`) is folded to IPv4 on both sides, so a
 * dual-stack listener's peer matches an IPv4 range. No server imports: the console's form validates with it too.
 */
export type IpRange = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Strict forms only: ipaddr.js also accepts `127.1` and `0x7f.0.0.1`, which no one means in an allow-list. */
function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (text.includes(':') && ipaddr.IPv6.isValid(text) && !text.includes('%')) return ipaddr.IPv6.parse(text);
  return null;
}

/** The range a text names, folded and with host bits cleared, or null when it is not one. */
export function parseIpRange(text: string): IpRange | null {
  const [addressText, prefixText, ...rest] = text.trim().split('/');
  if (rest.length > 0) return null;
  let address = parseAddress(addressText);
  if (!address) return null;
  let bits = address.kind() === 'ipv4' ? 32 : 128;
  if (prefixText !== undefined) {
    if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > bits) return null;
    bits = Number(prefixText);
  }
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
    address = (address as ipaddr.IPv6).toIPv4Address();
    bits -= 96;
  }
  const cidr = `${address.toString()}/${bits}`;
  return [
    address.kind() === 'ipv4' ? ipaddr.IPv4.networkAddressFromCIDR(cidr) : ipaddr.IPv6.networkAddressFromCIDR(cidr),
    bits,
  ];
}

/** The canonical text of a range: `198.51.100.0/24`, `2001:db8::/32`, `198.51.100.7/32`. */
export function formatIpRange([address, bits]: IpRange): string {
  return `${address.toString()}/${bits}`;
}

/** The canonical text, or null when the text is not a range. */
export function canonicalIpRange(text: string): string | null {
  const range = parseIpRange(text);
  return range ? formatIpRange(range) : null;
}

/** A client address as the pipeline knows it, folded; null when it is none (`unknown`). */
export function parseClientAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const address = parseAddress(text.trim());
  if (address?.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress())
    return (address as ipaddr.IPv6).toIPv4Address();
  return address;
}

/** Whether the address is in any of the ranges; an unknown address is in none. */
export function addressInRanges(address: ipaddr.IPv4 | ipaddr.IPv6 | null, ranges: readonly IpRange[]): boolean {
  if (!address) return false;
  return ranges.some(([network, bits]) => network.kind() === address.kind() && address.match(network, bits));
}

/** Whether every address of `inner` is also in one of `outer` (a key's ranges inside the policy's). */
export function rangeWithin([address, bits]: IpRange, outer: readonly IpRange[]): boolean {
  return outer.some(
    ([network, outerBits]) =>
      network.kind() === address.kind() && outerBits <= bits && address.match(network, outerBits),
  );
}
