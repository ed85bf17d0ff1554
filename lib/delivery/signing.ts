import { createHmac, randomBytes } from 'node:crypto';

/** A Standard Webhooks secret: `whsec_` and the base64 of 32 random bytes. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * One Standard Webhooks signature: `v1,` and the base64 of HMAC-SHA256, keyed with the secret's bytes, of
 * `{id}.{unix seconds}.{body}`. Node's own HMAC: the reference implementation's pure-JavaScript SHA-256 cost a busy
 * drain about 30 µs a request; the tests check every signature with that implementation, as a receiver would.
 */
function sign(secret: string, id: string, seconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${seconds}.${body}`).digest('base64')}`;
}

/**
 * The Standard Webhooks headers of one request: `webhook-id` (the same on every attempt, so receivers dedupe on
 * it), the attempt's time, and one signature per secret (after a rotation both sign, space-separated).
 */
export function signedHeaders(
  id: string,
  secrets: string[],
  body: string,
  at: Date,
  userAgent: string,
): Record<string, string> {
  const seconds = Math.floor(at.getTime() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(seconds),
    'webhook-signature': secrets.map((secret) => sign(secret, id, seconds, body)).join(' '),
    'user-agent': userAgent,
  };
}
