import { deliveryLoop } from '../delivery/engine';
import { isRetryable, nextRetryDelay, retryAfterMs, retrySchedule } from '../delivery/retry';
import { rowDeliveryChannel } from '../delivery/rows';
import { TIMEOUT_MS } from '../delivery/send';
import { signedHeaders } from '../delivery/signing';
import { targetUrlProblem } from '../delivery/address';
import {
  claimedDelivery,
  LEASE_SECONDS,
  logAttempt,
  webhookRows,
  type ClaimedDelivery,
  type ClaimRow,
} from './delivery-service';
import { deliveriesFailed, deliveriesRetried, deliveriesSent, queueAge } from './metrics';
import { settings } from '../settings/settings';

/** Webhook attempts this process keeps open at once (within the budget over every channel). */
const MAX_IN_FLIGHT = 20;
/** A retry due within this long wakes the loop when it falls due; a later one is found by the poll. */
const RETRY_WAKE_WITHIN_MS = 60_000;

let schedule: number[] | undefined;

/**
 * Webhook events as a channel of the delivery engine: the outbox's rows, one event to one endpoint each, claimed,
 * recorded and handed back by the engine's rows (`lib/delivery/rows.ts`). A 2xx delivers; no answer, 429 and 5xx
 * are retried by WEBHOOK_RETRY_SCHEDULE (a longer `Retry-After` wins), and its end disables the endpoint.
 */
export const webhookChannel = rowDeliveryChannel<ClaimedDelivery>({
  name: 'webhooks',
  rows: webhookRows,
  leaseSeconds: LEASE_SECONDS,
  fromRow: (row, now) => claimedDelivery(row as ClaimRow, now),
  claimed(claimed) {
    const now = Date.now();
    queueAge.set(claimed.reduce((oldest, d) => Math.max(oldest, (now - d.dueSince.getTime()) / 1000), 0));
  },
  outgoing(delivery, at) {
    // The URL was checked when saved; the switch for loopback targets may have been turned off since.
    const problem = targetUrlProblem(delivery.url);
    if (problem) return { refused: problem };
    const headers = signedHeaders(delivery.messageId, delivery.secrets, delivery.body, at, 'svc-console-webhooks/1');
    return { url: delivery.url, headers, body: delivery.body, timeoutMs: TIMEOUT_MS };
  },
  delivered: (result) => result.status !== null && result.status >= 200 && result.status < 300,
  retryable: (result) => isRetryable(result.status),
  retryIn: (delivery, result) =>
    result.notSent !== true && isRetryable(result.status)
      ? nextRetryDelay(delivery.failedInSchedule, (schedule ??= retrySchedule()), retryAfterMs(result.retryAfter))
      : null,
  recorded: logAttempt,
  committed(_delivery, outcome) {
    (outcome.delivered ? deliveriesSent : deliveriesFailed).inc();
    if (outcome.retryInMs === null) return;
    deliveriesRetried.inc();
    // Due again on the database's clock, counted from this record, which has committed: the timer starts after it,
    // and the wake's own delay follows. The loop looks then rather than at its next poll. A retry an hour away waits
    // for the poll instead of holding a timer for the hour.
    if (outcome.retryInMs <= RETRY_WAKE_WITHIN_MS)
      setTimeout(() => webhookDeliveryLoop.wake(), outcome.retryInMs).unref();
  },
});

/** The webhook delivery loop, in every instance: the claim keeps them from sending the same attempt. */
export const webhookDeliveryLoop = deliveryLoop(webhookChannel, {
  everyMs: settings().WEBHOOK_POLL_MS,
  maxInFlight: MAX_IN_FLIGHT,
});
