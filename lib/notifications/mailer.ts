import { deliveryLoop } from '../delivery/engine';
import { mailTransport, mailFrom, sendMail } from '../delivery/mail';
import { rowDeliveryChannel } from '../delivery/rows';
import { EMAIL_LEASE_SECONDS, emailRetryInMs, emailRows, type PendingEmail } from './email-service';
import { messageHtml, type Message } from './messages';
import { settings } from '../settings/settings';

/** Emails this process keeps open at once (within the budget over every channel). */
const MAX_IN_FLIGHT = 20;

/**
 * Pending emails as a channel of the delivery engine: one email to one address each, over SMTP_URL, claimed, recorded
 * and handed back by the engine's rows (`lib/delivery/rows.ts`). A reply below 400 sends it; any failure is retried
 * after a minute per attempt made, until MAX_EMAIL_ATTEMPTS.
 */
export const emailChannel = rowDeliveryChannel<PendingEmail>({
  name: 'emails',
  rows: emailRows,
  leaseSeconds: EMAIL_LEASE_SECONDS,
  fromRow: (row) => row as PendingEmail,
  outgoing: (email) => ({
    transport: (signal) =>
      sendMail({ to: email.to, subject: email.subject, text: email.body, html: messageHtml(email) }, signal),
  }),
  delivered: (result) => result.status !== null && result.status < 400,
  retryable: () => true,
  retryIn: (email) => emailRetryInMs(email.attempt),
  committed(email, outcome) {
    if (!outcome.delivered)
      console.error(
        `Email ${email.id} not sent (attempt ${email.attempt}):`,
        outcome.result.error ?? `the server answered ${outcome.result.status}.`,
      );
  },
});

/** The email loop, in every instance that has SMTP_URL: the claim keeps instances from sending one email twice. */
export const emailDeliveryLoop = deliveryLoop(emailChannel, {
  everyMs: settings().WEBHOOK_POLL_MS,
  maxInFlight: MAX_IN_FLIGHT,
});

/**
 * Sends one message now, outside the queue: for a message whose body holds a one-time link (an invitation), which
 * must never be stored. Kind names the message in the `X-Svc-Kind` header. Throws when the server refuses it.
 */
export async function sendNow(kind: string, to: string, message: Message): Promise<void> {
  await mailTransport().sendMail({
    from: mailFrom(),
    to,
    subject: message.subject,
    text: message.body,
    html: messageHtml(message),
    headers: { 'X-Svc-Kind': kind },
  });
}
