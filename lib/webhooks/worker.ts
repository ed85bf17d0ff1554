import { Webhook } from 'standardwebhooks';
import {
  claimDueDeliveries,
  recordAttempt,
  releaseClaim,
  type AttemptOutcome,
  type ClaimedDelivery,
} from './delivery-service';
import { deliveriesFailed, deliveriesRetried, deliveriesSent, queueAge } from './metrics';
import { isRetryable, nextRetryDelay, retryAfterMs, retrySchedule } from '../delivery/retry';
import { sendSigned, type SendResult } from '../delivery/send';
import { targetUrlProblem } from '../delivery/address';

export const BATCH = 20;
const RECORD_TRIES = 3;

/** The Standard Webhooks headers; after a rotation both secrets sign, as two space-separated signatures. */
export function signedHeaders(delivery: ClaimedDelivery, at: Date): Record<string, string> {
  const signatures = delivery.secrets.map((secret) => new Webhook(secret).sign(delivery.messageId, at, delivery.body));
  return {
    'webhook-id': delivery.messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
    'user-agent': 'svc-console-webhooks/1',
  };
}

/** Deliveries this process claimed and has not recorded yet: what a shutdown hands back. */
const held = new Map<string, number>();

async function attempt(delivery: ClaimedDelivery, schedule: number[]): Promise<void> {
  const at = new Date();
  // The URL was checked when saved; the switch for loopback targets may have been turned off since.
  const problem = targetUrlProblem(delivery.url);
  const result: SendResult = problem
    ? { status: null, error: problem, retryAfter: null, durationMs: 0 }
    : await sendSigned(delivery.url, signedHeaders(delivery, at), delivery.body);
  const delivered = result.status !== null && result.status >= 200 && result.status < 300;
  const retry =
    !delivered && !problem && isRetryable(result.status)
      ? nextRetryDelay(delivery.failedInSchedule, schedule, retryAfterMs(result.retryAfter))
      : null;
  (delivered ? deliveriesSent : deliveriesFailed).inc();
  if (retry !== null) deliveriesRetried.inc();
  const error = result.error ?? (delivered ? null : `The receiver answered ${result.status}.`);
  // Handed back at shutdown while it was sent: another instance may own this attempt number now.
  if (!held.has(delivery.id)) return;
  await recordWithRetries(delivery, {
    status: result.status,
    error,
    durationMs: result.durationMs,
    at,
    // The schedule counts from the failure: the attempt's start plus how long it took.
    nextAttemptAt: retry === null ? null : new Date(at.getTime() + result.durationMs + retry),
    delivered,
    exhausted: !delivered && retry === null && isRetryable(result.status) && !problem,
  });
}

/**
 * A sent attempt must not wait out its lease because the database blinked while recording it: a few quick tries
 * (a repeat of one that did commit records nothing). If all fail, the lease runs out and the next claim is a new
 * attempt: at least once still holds.
 */
async function recordWithRetries(delivery: ClaimedDelivery, outcome: AttemptOutcome): Promise<void> {
  for (let tries = 1; ; tries++) {
    try {
      await recordAttempt(delivery, outcome);
      return;
    } catch (err) {
      if (tries >= RECORD_TRIES) throw err;
      await new Promise((resolve) => setTimeout(resolve, 200 * tries));
    }
  }
}

/** One pass: claims what is due and sends it, concurrently. Returns how many were claimed. */
export async function deliverDue(schedule = retrySchedule()): Promise<number> {
  const claimed = await claimDueDeliveries(BATCH);
  const now = Date.now();
  queueAge.set(claimed.reduce((oldest, d) => Math.max(oldest, (now - d.dueSince.getTime()) / 1000), 0));
  for (const d of claimed) held.set(d.id, d.attempt);
  // Every attempt runs to its end even when another fails; each failure is logged on its own.
  const outcomes = await Promise.allSettled(claimed.map((d) => attempt(d, schedule).finally(() => held.delete(d.id))));
  for (const [i, outcome] of outcomes.entries())
    if (outcome.status === 'rejected')
      console.error(`Webhook delivery ${claimed[i].id}: attempt ${claimed[i].attempt} not recorded.`, outcome.reason);
  return claimed.length;
}

/**
 * At shutdown, after the drain: gives back every delivery still claimed here (a send that outlived the drain), so
 * another instance sends it at once instead of after the lease. Returns how many were given back.
 */
export async function releaseWebhookLeases(): Promise<number> {
  const claims = [...held];
  held.clear();
  await Promise.all(claims.map(([id, attempt]) => releaseClaim(id, attempt)));
  return claims.length;
}
