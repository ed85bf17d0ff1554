import nodemailer, { type SendMailOptions, type Transporter } from 'nodemailer';
import { settings } from '../settings/settings';
import type { SendResult } from './send';

let transporter: Transporter | null = null;
/** SMTP_URL carries the scheme (smtp:// or smtps://) and any credentials; nodemailer reads it as it is. */
export function mailTransport(): Transporter {
  transporter ??= nodemailer.createTransport(settings().SMTP_URL!);
  return transporter;
}

export function mailFrom(): string {
  return settings().MAIL_FROM;
}

/**
 * Sends one email as a delivery attempt: the server's reply code as the status (250 when accepted), or why no reply
 * came. Never throws. SMTP cannot be cut from outside the client, so `signal` (shutdown) stops the wait only: the
 * result is `cancelled`, the claim goes back, and a late reply is recorded nowhere (its attempt is no longer held).
 */
export function sendMail(message: SendMailOptions, signal?: AbortSignal): Promise<SendResult> {
  const started = performance.now();
  const result = (status: number | null, error: string | null, extra: Partial<SendResult> = {}): SendResult => ({
    status,
    error,
    errorClass: status === null ? 'connection' : null,
    retryAfter: null,
    durationMs: Math.round(performance.now() - started),
    answer: '',
    answerWhole: true,
    ...extra,
  });
  const sent = mailTransport()
    .sendMail({ from: mailFrom(), ...message })
    .then(
      (info: { response?: string }) => result(Number(/^\d{3}/.exec(info.response ?? '')?.[0] ?? 250), null),
      // The server's answer, never the message: a body could one day carry something private.
      (err: Error & { responseCode?: number }) => result(err.responseCode ?? null, err.message.slice(0, 500)),
    );
  if (!signal) return sent;
  return Promise.race([
    sent,
    new Promise<SendResult>((resolve) => {
      const cancelled = () => resolve(result(null, 'Cancelled at shutdown.', { cancelled: true }));
      if (signal.aborted) cancelled();
      else signal.addEventListener('abort', cancelled, { once: true });
    }),
  ]);
}
