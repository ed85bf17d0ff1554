/** The kinds of notification (PRODUCT.md "Notifications"); each user may turn each off. */
export const NOTIFICATION_KINDS = [
  'key_leaked',
  'key_expiring',
  'key_revoked_by_other',
  'webhook_disabled',
  'subscription_health',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export type Message = { subject: string; body: string };

/** A key as messages name it: its name and display prefix, never its secret. */
type KeyRef = { name: string; prefix: string };
const keyLabel = (key: KeyRef) => `"${key.name}" (${key.prefix}…)`;

export function keyLeakedMessage(key: KeyRef, url: string | null, at: Date): Message {
  return {
    subject: `API key ${keyLabel(key)} was found in public and revoked`,
    body:
      `A secret scanning partner reported the API key ${keyLabel(key)} at ${at.toISOString()}` +
      `${url ? `, found at ${url}` : ''}.\n\nThe key was revoked at once and no longer works. ` +
      'Create a new key for whatever used it, and remove the old one from where it was found.',
  };
}

export function keyExpiringMessage(key: KeyRef, expiresAt: Date, daysBefore: number): Message {
  const when = daysBefore === 1 ? 'within a day' : `in ${daysBefore} days`;
  return {
    subject: `API key ${keyLabel(key)} expires ${when}`,
    body:
      `Your API key ${keyLabel(key)} expires at ${expiresAt.toISOString()}. ` +
      'After that it authenticates nothing. Roll it in the console to get a replacement with the same name.',
  };
}

export function keyRevokedByOtherMessage(key: KeyRef, by: string): Message {
  return {
    subject: `API key ${keyLabel(key)} was revoked by ${by}`,
    body: `${by} revoked your API key ${keyLabel(key)}. It no longer works; the audit log has the details.`,
  };
}

export function webhookDisabledMessage(url: string, reason: string): Message {
  return {
    subject: `Webhook ${url} was disabled`,
    body:
      `The webhook endpoint ${url} was disabled: ${reason}\n\n` +
      'No events are queued or sent for it while it is disabled. Fix the receiver, then enable it again on the ' +
      'Webhooks page; a failed event can be sent again with Redeliver in its delivery log.',
  };
}

/** A subscription's health turned: failing after failures in a row, or healthy again at a success. */
export function subscriptionHealthMessage(
  subscription: { slug: string; url: string },
  health: 'failing' | 'healthy',
  lastError: string | null,
): Message {
  if (health === 'healthy')
    return {
      subject: `Subscription ${subscription.slug} recovered`,
      body: `Deliveries to ${subscription.url} succeed again; its backlog drains as usual.`,
    };
  return {
    subject: `Subscription ${subscription.slug} is failing`,
    body:
      `Deliveries to ${subscription.url} failed 3 times in a row${lastError ? `; the last: ${lastError}` : ''}.\n\n` +
      "Failed messages are retried with backoff and dead-lettered after the retry policy's attempts. The " +
      "subscription's page in the console shows its recent deliveries and dead letters.",
  };
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The HTML part of an email: the plain text, escaped, one paragraph per blank-line-separated block. */
export function messageHtml(message: Message): string {
  const paragraphs = message.body.split(/\n{2,}/).map((p) => `<p>${escapeHtml(p)}</p>`);
  return `<!doctype html><html><body style="font-family:sans-serif">${paragraphs.join('')}</body></html>`;
}

/** Kind `invitation`: sent straight to an address that may have no account yet, never stored (its link is a secret). */
export function invitationMessage(organization: string, inviter: string, url: string, expiresAt: Date): Message {
  return {
    subject: `${inviter} invited you to ${organization}`,
    body:
      `${inviter} invited you to join the organization ${organization}.\n\n` +
      `Open this link to accept, before ${expiresAt.toISOString()}: ${url}\n\n` +
      'It works once. If you did not expect this invitation, ignore this email.',
  };
}
