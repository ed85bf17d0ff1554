import nodemailer, { type Transporter } from 'nodemailer';
import { claimPendingEmails, recordEmailResult, releaseEmailClaim, type PendingEmail } from './email-service';
import { messageHtml, type Message } from './messages';

export const BATCH = 20;
/** Emails this process claimed and has not sent yet: what a shutdown hands back. */
const held = new Set<PendingEmail>();

let transporter: Transporter | null = null;
function transport(): Transporter {
  // SMTP_URL carries the scheme (smtp:// or smtps://) and any credentials; nodemailer reads it as it is.
  transporter ??= nodemailer.createTransport(process.env.SMTP_URL!);
  return transporter;
}

export function mailFrom(): string {
  return process.env.MAIL_FROM ?? 'svc-console <no-reply@localhost>';
}

/** One pass: claims pending emails and sends each as plain text and HTML. Returns how many were claimed. */
export async function sendPendingEmails(): Promise<number> {
  const emails = await claimPendingEmails(BATCH);
  for (const email of emails) held.add(email);
  await Promise.all(
    emails.map(async (email) => {
      let sent = false;
      try {
        await transport().sendMail({
          from: mailFrom(),
          to: email.to,
          subject: email.subject,
          text: email.body,
          html: messageHtml(email),
        });
        sent = true;
      } catch (err) {
        // The server's answer, never the message: a body could one day carry something private.
        console.error(`Email ${email.id} not sent (attempt ${email.attempts}):`, (err as Error).message);
      }
      // Handed back at shutdown while it was sent: another instance may own this attempt now.
      if (held.delete(email)) await recordEmailResult(email, sent);
    }),
  );
  return emails.length;
}

/** At shutdown, after the drain: gives back the emails claimed here and not sent, for another instance at once. */
export async function releaseEmailLeases(): Promise<number> {
  const claims = [...held];
  held.clear();
  await Promise.all(claims.map((email) => releaseEmailClaim(email)));
  return claims.length;
}

/**
 * Sends one message now, outside the queue: for a message whose body holds a one-time link (an invitation), which
 * must never be stored. Kind names the message in the `X-Svc-Kind` header. Throws when the server refuses it.
 */
export async function sendNow(kind: string, to: string, message: Message): Promise<void> {
  await transport().sendMail({
    from: mailFrom(),
    to,
    subject: message.subject,
    text: message.body,
    html: messageHtml(message),
    headers: { 'X-Svc-Kind': kind },
  });
}
