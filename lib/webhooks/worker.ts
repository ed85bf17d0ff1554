import { AFTER_COMMIT_WAKE_DELAY_MS, deliveryLoop, type DeliveryChannel } from '../delivery/engine';
import { isRetryable, nextRetryDelay, retryAfterMs, retrySchedule } from '../delivery/retry';
import { TIMEOUT_MS, type SendResult } from '../delivery/send';
import { signedHeaders } from '../delivery/signing';
import { targetUrlProblem } from '../delivery/address';
import { claimDueDeliveries, recordAttempt, releaseClaim, type ClaimedDelivery } from './delivery-service';
import { deliveriesFailed, deliveriesRetried, deliveriesSent, queueAge } from './metrics';
import { settings } from '../settings/settings';

/** Webhook attempts this process keeps open at once (within the budget over every channel). */
const MAX_IN_FLIGHT = 20;
/** A retry due within this long wakes the loop when it falls due; a later one is found by the poll. */
const RETRY_WAKE_WITHIN_MS = 60_000;

let schedule: number[] | undefined;

/** Webhook events as a channel of the delivery engine: the outbox's rows, one event to one endpoint each. */
const webhookChannel: DeliveryChannel<ClaimedDelivery> = {
  name: 'webhooks',
  async claim(limit) {
    const claimed = await claimDueDeliveries(limit);
    const now = Date.now();
    queueAge.set(claimed.reduce((oldest, d) => Math.max(oldest, (now - d.dueSince.getTime()) / 1000), 0));
    return claimed;
  },
  key: (delivery) => delivery.id,
  outgoing(delivery, at) {
    // The URL was checked when saved; the switch for loopback targets may have been turned off since.
    const problem = targetUrlProblem(delivery.url);
    if (problem) return { refused: problem };
    const headers = signedHeaders(delivery.messageId, delivery.secrets, delivery.body, at, 'svc-console-webhooks/1');
    return { url: delivery.url, headers, body: delivery.body, timeoutMs: TIMEOUT_MS };
  },
  async record(delivery, result: SendResult, at) {
    const refused = result.notSent === true;
    const delivered = result.status !== null && result.status >= 200 && result.status < 300;
    const retry =
      !delivered && !refused && isRetryable(result.status)
        ? nextRetryDelay(delivery.failedInSchedule, (schedule ??= retrySchedule()), retryAfterMs(result.retryAfter))
        : null;
    const recorded = await recordAttempt(delivery, {
      status: result.status,
      error: result.error ?? (delivered ? null : `The receiver answered ${result.status}.`),
      durationMs: result.durationMs,
      at,
      // The schedule counts from the failure, which the record follows at once.
      retryInMs: retry,
      delivered,
      exhausted: !delivered && retry === null && isRetryable(result.status) && !refused,
    });
    // Counted once per recorded attempt: not for a record that found its lease gone, nor twice for a retried one.
    if (!recorded) return;
    (delivered ? deliveriesSent : deliveriesFailed).inc();
    if (retry === null) return;
    deliveriesRetried.inc();
    // Due again on the database's clock, counted from this record, which has committed: the timer starts after it,
    // and the wake's own delay follows. The loop looks then rather than at its next poll. A retry an hour away waits
    // for the poll instead of holding a timer for the hour.
    if (retry <= RETRY_WAKE_WITHIN_MS) setTimeout(() => webhookDeliveryLoop.wake(), retry).unref();
  },
  release: (delivery) => releaseClaim(delivery.id, delivery.attempt),
};

/** The webhook delivery loop, in every instance: the claim keeps them from sending the same attempt. */
export const webhookDeliveryLoop = deliveryLoop(webhookChannel, {
  everyMs: settings().WEBHOOK_POLL_MS,
  maxInFlight: MAX_IN_FLIGHT,
  wakeDelayMs: AFTER_COMMIT_WAKE_DELAY_MS,
});
