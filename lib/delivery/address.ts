import ipaddr from 'ipaddr.js';
import { httpsUrlProblem, isPublicAddress, MAX_TARGET_URL_LENGTH } from './target-url';
import { settings } from '../settings/settings';

/** `WEBHOOK_ALLOW_LOOPBACK=1`: tests and local setups may deliver to 127.0.0.0/8 and ::1, nothing else private. */
export function loopbackAllowed(): boolean {
  return typeof window === 'undefined' && settings().WEBHOOK_ALLOW_LOOPBACK;
}

function isLoopback(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return address.range() === 'loopback';
}

/** A loopback literal written plainly (`http://127.0.0.1:8080/x`, `http://[::1]/`), when the switch admits one. */
function admittedLoopback(value: string): boolean {
  if (!/^https?:\/\/(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])(:\d{1,5})?([/?#]|$)/i.test(value)) return false;
  try {
    const url = new URL(value);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    return !url.username && !url.password && ipaddr.isValid(host) && isLoopback(ipaddr.parse(host));
  } catch {
    return false;
  }
}

/**
 * Why a delivery target URL (a webhook endpoint's, a subscription's) is refused, or null: the subscription targets' guard (https, no internal address
 * literal), except that with the loopback switch on a loopback literal may be used, over http too.
 */
export function targetUrlProblem(value: string, allowLoopback = loopbackAllowed()): string | null {
  if (value.length > MAX_TARGET_URL_LENGTH) return `The URL must be at most ${MAX_TARGET_URL_LENGTH} characters.`;
  if (allowLoopback && admittedLoopback(value)) return null;
  return httpsUrlProblem(value);
}

/**
 * Whether a delivery may connect to an address DNS gave for the URL's host: checked at connection time, so a
 * name that resolved to a public address when the URL was saved cannot be rebound to an internal one.
 */
export function addressAllowed(address: string, allowLoopback = loopbackAllowed()): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  if (allowLoopback && isLoopback(parsed)) return true;
  return isPublicAddress(parsed);
}
