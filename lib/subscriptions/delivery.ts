import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { getDb, type Tx } from '../db/client';
import type { DeliveryError } from '../db/schema';
import { targetUrlProblem } from '../delivery/address';
import { deliveryLoop, type DeliveryChannel } from '../delivery/engine';
import { backoffDelayMs, retryAfterMs } from '../delivery/retry';
import type { SendResult } from '../delivery/send';
import { signedHeaders } from '../delivery/signing';
import { SYSTEM_ACTOR } from '../audit/source';
import { subscriptionHealthMessage } from '../notifications/messages';
import { membersHolding, notifyUsers } from '../notifications/service';
import { enqueueWebhookEvents } from '../webhooks/enqueue';
import {
  claimBatches,
  recordBatches,
  releaseBatch,
  type BatchOutcome,
  type ClaimedBatch,
  type RecordedCounts,
} from './delivery-service';
import { queueDeliveries, queueDeliveryDuration } from './metrics';
import { countMinute } from './minute-counts';
import { pauseSubscription, type StateChangeSource } from './service';
import { settings } from '../settings/settings';

/**
 * What an answer means for a batch (PRODUCT.md "Delivery"): a 2xx read to its end delivers it, unless its body is a
 * JSON object (after an optional byte-order mark and white space) with `failed: [messageId, …]`, which fails only
 * those. A JSON object must be whole within 64 KiB, parse, and have `failed` absent or a list of this batch's ids;
 * otherwise the whole batch fails as `invalid_response`. Any other 2xx body (text, HTML, empty) delivers it,
 * whatever its length. A 410 pauses the subscription; anything else, and no whole answer, fails it.
 */
export function batchOutcome(batch: ClaimedBatch, result: SendResult, at: Date): BatchOutcome {
  const error = (cls: string, message: string, status = result.status ?? 0): DeliveryError => ({
    at: at.toISOString(),
    class: cls,
    message,
    status,
  });
  const failAll = (e: DeliveryError): BatchOutcome => ({
    outcome: 'failed',
    status: result.status,
    durationMs: result.durationMs,
    error: e,
    failed: retries(batch, batch.messages, result),
  });
  if (result.status === null) return failAll(error(result.errorClass ?? 'connection', result.error ?? 'No answer.', 0));
  const status = result.status;
  if (status === 410)
    return {
      outcome: 'paused',
      status,
      durationMs: result.durationMs,
      error: error('http', 'The target answered 410 Gone, so the subscription was paused; resume it to deliver again.'),
      failed: [],
    };
  if (status < 200 || status >= 300)
    return failAll(error('http', `The target answered ${status} ${STATUS_CODES[status] ?? ''}`.trim() + '.'));
  const reported = reportedFailures(result);
  if (typeof reported === 'string') return failAll(error('invalid_response', `The target answered 2xx ${reported}.`));
  const ids = new Set(batch.messages.map((m) => m.id));
  if (reported.some((id) => !ids.has(id)))
    return failAll(
      error('invalid_response', 'The target answered 2xx with a "failed" naming ids that are not in this batch.'),
    );
  if (reported.length === 0)
    return { outcome: 'delivered', status, durationMs: result.durationMs, error: null, failed: [] };
  const failedIds = new Set(reported);
  const failedMessages = batch.messages.filter((m) => failedIds.has(m.id));
  return {
    outcome: failedMessages.length === batch.messages.length ? 'failed' : 'partial',
    status,
    durationMs: result.durationMs,
    error: error(
      'http',
      `The target reported ${failedMessages.length} of ${batch.messages.length} messages as failed.`,
    ),
    failed: retries(batch, failedMessages, result),
  };
}

/**
 * The ids a 2xx answer reports as failed (none when its body is no JSON object, or one without `failed`), or why
 * the answer cannot be read, which fails the whole batch: never read as a success.
 */
export function reportedFailures(result: Pick<SendResult, 'answer' | 'answerWhole'>): string[] | string {
  // RFC 8259 §8.1: a parser may ignore a byte-order mark.
  const text = result.answer.replace(/^\uFEFF/, '');
  if (!text.trimStart().startsWith('{')) return [];
  if (!result.answerWhole) return 'with a JSON object longer than 64 KiB';
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'with a body that starts as a JSON object but is not valid JSON';
  }
  const failed = (parsed as { failed?: unknown }).failed;
  if (failed === undefined) return [];
  return Array.isArray(failed) && failed.every((id) => typeof id === 'string')
    ? failed
    : 'with a "failed" that is not a list of message ids';
}

/** How long each failed message waits, counted from its record on the database's clock. */
function retries(batch: ClaimedBatch, messages: ClaimedBatch['messages'], result: SendResult) {
  const retryAfter = retryAfterMs(result.retryAfter);
  return messages.map((m) => ({
    id: m.id,
    retryInMs: backoffDelayMs(batch.retryPolicy, m.attempts + 1, retryAfter),
  }));
}

/** A health turn's webhook event and console notice, with the record (a 410's pause is the record's own). */
async function announce(tx: Tx, batch: ClaimedBatch, o: BatchOutcome, counts: RecordedCounts, at: Date) {
  const subscription = { id: batch.subscriptionId, projectId: batch.projectId, queueId: batch.queueId };
  if (counts.turned) {
    const type = counts.turned === 'failing' ? 'subscription.failing' : 'subscription.recovered';
    await enqueueWebhookEvents(
      tx,
      batch.organizationId,
      [{ id: randomUUID(), type, payload: { subscription, lastError: o.error } }],
      at,
    );
    const users = await membersHolding(tx, batch.organizationId, 'queues.subscriptions.update', batch.projectId);
    await notifyUsers(
      tx,
      users,
      batch.organizationId,
      'subscription_health',
      subscriptionHealthMessage({ slug: batch.slug, url: batch.url }, counts.turned, o.error?.message ?? null),
    );
  }
}

/** Who pauses a subscription whose target answered 410 Gone, and why, in the audit log. */
const GONE: StateChangeSource = {
  actor: SYSTEM_ACTOR,
  context: { requestId: null, ip: null, userAgent: null },
  reason: 'The target answered 410 Gone.',
};

/** What a record did to one attempt; `paused`: its 410 paused the subscription now. */
type AttemptRecorded = RecordedCounts & { paused: boolean; next?: ClaimedBatch };

/**
 * Records one attempt with what it announces (a health turn, a 410's pause), and counts it.
 * Returns what it recorded (nothing when the lease was no longer this attempt's).
 */
export async function recordDelivery(batch: ClaimedBatch, result: SendResult, at: Date): Promise<AttemptRecorded> {
  const [counts] = await recordDeliveries([{ batch, result, at }]);
  return counts;
}

/** A finished send to record; `refill`: lease its subscription's next batch in its place, in the same statement. */
type Finished = { batch: ClaimedBatch; result: SendResult; at: Date; refill?: boolean };

/**
 * Records attempts in one statement, and counts them: a round trip and a commit, with its wait for the log, are paid
 * once for all of them. Those that asked for it get the next batch of their subscription, leased in the same
 * statement (`next`). A record that turns a subscription's health, or pauses one (a 410), runs again in a
 * transaction with what it announces.
 */
export async function recordDeliveries(finished: Finished[]): Promise<AttemptRecorded[]> {
  const db = await getDb();
  const attempts = finished.map(({ batch, result, at }) => ({ batch, outcome: batchOutcome(batch, result, at) }));
  const refill = finished.flatMap((f) => (f.refill ? [f.batch.deliveryId] : []));
  const alone = await recordBatches(db, attempts, { refill, alone: true });
  const { all, next } = alone
    ? { all: alone.counts.map((c): AttemptRecorded => ({ ...c, paused: false })), next: alone.next }
    : await db.transaction(async (tx) => {
        const recorded = (await recordBatches(tx, attempts, { refill }))!;
        const all: AttemptRecorded[] = [];
        for (const [i, c] of recorded.counts.entries()) {
          const { batch, outcome } = attempts[i];
          // A 410 pauses the subscription as the API does, with its event; of two records at once, the one that did.
          const paused =
            c.recorded &&
            outcome.outcome === 'paused' &&
            (await pauseSubscription(tx, batch, batch.subscriptionId, GONE))?.changed === true;
          if (c.recorded) await announce(tx, batch, outcome, c, finished[i].at);
          all.push({ ...c, paused });
        }
        return { all, next: recorded.next };
      });
  // Each new batch goes to one of the finished sends of its subscription that asked, in their order.
  for (const batch of next) {
    const i = finished.findIndex(
      (f, j) => f.refill && f.batch.subscriptionId === batch.subscriptionId && all[j].recorded && !all[j].next,
    );
    all[i].next = batch;
  }
  all.forEach((c, i) => {
    if (!c.recorded) return;
    countMinute(finished[i].batch.subscriptionId, c.minute, {
      delivered: c.delivered,
      failed: c.failed,
      dead: c.deadLettered,
    });
    queueDeliveryDuration.observe(finished[i].result.durationMs / 1000);
    queueDeliveries.inc({ outcome: 'delivered' }, c.delivered);
    queueDeliveries.inc({ outcome: 'failed' }, c.failed);
    queueDeliveries.inc({ outcome: 'dead_lettered' }, c.deadLettered);
  });
  return all;
}

/** At most this many attempts share a record. */
const RECORDS_PER_STATEMENT = 50;

/**
 * Attempts that finish while a record runs wait for it and go together in the next: under load each
 * commit records many, and alone an attempt is recorded at once. A failed record fails each of its attempts,
 * which the engine tries again on their own.
 */
function recordTogether() {
  const waiting: (Finished & { done: (error?: unknown, next?: ClaimedBatch) => void })[] = [];
  let running = false;
  async function drain() {
    running = true;
    while (waiting.length > 0) {
      const group = waiting.splice(0, RECORDS_PER_STATEMENT);
      try {
        const recorded = await recordDeliveries(group);
        group.forEach((g, i) => g.done(undefined, recorded[i].next));
      } catch (error) {
        for (const g of group) g.done(error ?? new Error('record failed'));
      }
    }
    running = false;
  }
  return (batch: ClaimedBatch, result: SendResult, at: Date, refill: boolean) =>
    new Promise<ClaimedBatch | undefined>((resolve, reject) => {
      waiting.push({
        batch,
        result,
        at,
        refill,
        done: (error, next) => (error === undefined ? resolve(next) : reject(error)),
      });
      if (!running) void drain();
    });
}

const record = recordTogether();

const subscriptionChannel: DeliveryChannel<ClaimedBatch> = {
  name: 'subscriptions',
  claim: claimBatches,
  key: (batch) => batch.deliveryId,
  outgoing(batch, at) {
    // Checked when saved; the loopback switch may have been turned off since. The address is checked at connect.
    const problem = targetUrlProblem(batch.url);
    if (problem) return { refused: problem };
    const headers = signedHeaders(batch.deliveryId, batch.secrets, batch.body, at, 'svc-console-queues/1');
    return { url: batch.url, headers, body: batch.body, timeoutMs: batch.timeoutSeconds * 1000 };
  },
  record,
  release: (batch) => releaseBatch(batch.deliveryId),
  target: (batch) => batch.subscriptionId,
};

/**
 * Subscription batches through the delivery engine, in every instance. QUEUE_POLL_MS is how often an idle
 * instance looks for ready messages (a publish here, or a send finishing, wakes it at once); QUEUE_MAX_IN_FLIGHT,
 * the process's budget, bounds its open deliveries together with every other channel's.
 */
export const subscriptionDeliveryLoop = deliveryLoop(subscriptionChannel, {
  everyMs: settings().QUEUE_POLL_MS,
  // No share of its own: the process's budget (lib/delivery/budget.ts) is what bounds it.
  maxInFlight: Number.MAX_SAFE_INTEGER,
  claimLimit: 100,
});
