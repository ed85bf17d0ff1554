import { sql } from 'drizzle-orm';
import * as t from '../db/schema';
import type { DeliveryRows } from '../delivery/rows';

export type PendingEmail = { id: string; to: string; subject: string; body: string; attempt: number };

/** An SMTP failure is retried this many times in all, a minute apart and more; then the email is given up. */
export const MAX_EMAIL_ATTEMPTS = 5;
/** How long a claim holds an email: past any SMTP exchange, so only a crashed sender loses it. */
export const EMAIL_LEASE_SECONDS = 60;

/**
 * Notifications with an email to send, as the delivery engine's rows: one email to one address each. An email has no
 * due time of its own: the wait before a retry is written as its lease.
 */
export const emailRows: DeliveryRows = {
  table: t.notifications,
  id: t.notifications.id,
  state: t.notifications.emailState,
  attempts: t.notifications.emailAttempts,
  lease: t.notifications.emailLockedUntil,
  due: null,
  order: t.notifications.createdAt,
  delivered: 'sent',
  failed: 'failed',
  select: sql`
    select c.id, u.email as "to", c.subject, c.body, c.email_attempts as attempt
    from claimed c join users u on u.id = c.user_id`,
};

/** After the n-th failed attempt: n minutes until the next, or null once MAX_EMAIL_ATTEMPTS are used. */
export function emailRetryInMs(attempt: number): number | null {
  return attempt < MAX_EMAIL_ATTEMPTS ? attempt * 60_000 : null;
}
