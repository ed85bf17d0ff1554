import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A Standard Webhooks secret: `whsec_` and the base64 of 32 random bytes. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
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
  const signatures = secrets.map((secret) => new Webhook(secret).sign(id, at, body));
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
    'user-agent': userAgent,
  };
}
