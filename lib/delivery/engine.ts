import type { BackgroundJob } from '../jobs/runner';
import { processBudget } from './budget';
import { sendSigned, type SendResult } from './send';

/** A signed POST ready to go: the engine sends it and hands the result back to its channel. */
export type OutgoingRequest = { url: string; headers: Record<string, string>; body: string; timeoutMs: number };

/**
 * What goes out for one claimed delivery: an HTTP request the engine sends, a send of the channel's own transport
 * (email's SMTP), or why it is refused now (recorded as a `blocked_address` failure, never sent).
 */
export type Outgoing =
  OutgoingRequest | { transport: (signal: AbortSignal) => Promise<SendResult> } | { refused: string };

/**
 * What a kind of delivery (webhook events, subscription batches, email) plugs into the engine: how its work is
 * claimed, turned into what to send, recorded and handed back. The engine owns the loop: how much is in flight in
 * this process, sending, cancelling at shutdown, and giving back what it holds.
 */
export type DeliveryChannel<C> = {
  name: string;
  /** Claims up to `limit` deliveries for this instance, each leased so no other instance sends it meanwhile. */
  claim(limit: number): Promise<C[]>;
  key(claimed: C): string;
  outgoing(claimed: C, at: Date): Outgoing;
  /**
   * Records one attempt; only while the lease it claimed still holds (a second record writes nothing). When
   * `refill` is set, a channel may lease its next delivery in the same transaction, in the room this one leaves (the
   * same target's next batch): it returns it, and the engine sends it at once, with no claim between the two.
   */
  record(claimed: C, result: SendResult, at: Date, refill: boolean): Promise<C | void>;
  /** Gives back a claim not recorded: due again at once for any instance, no attempt counted. */
  release(claimed: C): Promise<void>;
  /**
   * Where a delivery goes, for a channel whose claims serve targets in turn (a subscription): while the process's
   * budget is full, a send still refills if the claim that filled this loop's room found work for its target alone.
   */
  target?(claimed: C): string;
};

export type DeliveryLoop = { job: BackgroundJob; inFlight: () => number; wake: () => void };

const RECORD_TRIES = 3;
const NOT_SENT = {
  status: null,
  errorClass: 'blocked_address',
  retryAfter: null,
  durationMs: 0,
  answer: '',
  answerWhole: true,
  notSent: true,
} as const;
/**
 * How long after a wake the loop's pass starts: sends to a fast target finish a few at a time, and one claim then
 * leases a delivery for each. (What queues work inside a transaction wakes the loop once it has committed,
 * `lib/db/commit-hooks.ts`.)
 */
const WAKE_DELAY_MS = 2;
/** At shutdown, how long sends in flight may finish before what is left is cancelled and handed back. */
const SHUTDOWN_GRACE_MS = 2_000;
/** At shutdown, how long a send being recorded may take before its claim is left to its lease. */
const RECORD_GRACE_MS = 5_000;

type Held<C> = { claimed: C; cancel: AbortController; sending: boolean; cancelled: boolean; done: Promise<void> };

/**
 * The delivery loop of one channel, as a background job: each pass claims as much as there is room for (this
 * channel's `maxInFlight`, and the room left in the process's budget over every channel) and starts sending
 * without waiting, so a slow target never holds back the next claim; each finished send frees its room and wakes
 * the loop. A full claim goes again at once; otherwise the loop waits `everyMs` or until woken (new work published
 * here, a send finished). A wake starts the pass after `WAKE_DELAY_MS`, so sends finishing together free their room
 * for one claim. At shutdown, sends still open after a short grace are cancelled (their connections closed) and
 * only then given back, so no other instance sends them while they are open here.
 */
export function deliveryLoop<C>(
  channel: DeliveryChannel<C>,
  { everyMs, maxInFlight, claimLimit = maxInFlight }: { everyMs: number; maxInFlight: number; claimLimit?: number },
): DeliveryLoop {
  const held = new Map<string, Held<C>>();
  let wake: () => void = () => {};
  let stopping = false;
  /**
   * The target whose work alone filled this loop's last claim, and until when its sends may refill while the budget
   * is full: no other target was waiting for the room then, and after `everyMs` a send gives its room back so that
   * a claim looks again.
   */
  let sole: { target: string; until: number } | null = null;

  /**
   * Whether a finished send may lease its target's next delivery in its place. Not once shutdown has begun. While a
   * claim found more work than the room it got in the process's budget, the room goes back to the claims, which
   * serve every target in turn, unless that work was all this target's and nothing else waits for room.
   */
  function mayRefill(claimed: C): boolean {
    if (stopping) return false;
    if (!processBudget.awaited()) return true;
    return (
      sole !== null &&
      Date.now() < sole.until &&
      processBudget.awaitedOnlyBy(wake) &&
      channel.target?.(claimed) === sole.target
    );
  }

  /**
   * A claim serves targets in turn (each one's first before any second), so a room of two places or more filled with
   * one target's deliveries means no other target had work for it.
   */
  function soleTarget(claimed: C[], room: number): typeof sole {
    const targetOf = channel.target;
    if (!targetOf || room < 2 || claimed.length < room) return null;
    const target = targetOf(claimed[0]);
    return claimed.every((c) => targetOf(c) === target) ? { target, until: Date.now() + everyMs } : null;
  }

  /**
   * Sends what `entry` holds and records it; while the record hands back the next delivery in its room (a refill),
   * sends that too, in the same place of the budget. Resolves once the room is free again.
   */
  async function attempt(entry: Held<C>): Promise<void> {
    for (;;) {
      const { claimed } = entry;
      const at = new Date();
      const outgoing = channel.outgoing(claimed, at);
      const result: SendResult =
        'refused' in outgoing
          ? { ...NOT_SENT, error: outgoing.refused }
          : 'transport' in outgoing
            ? await outgoing.transport(entry.cancel.signal)
            : await sendSigned(outgoing.url, outgoing.headers, outgoing.body, outgoing.timeoutMs, entry.cancel.signal);
      entry.sending = false;
      // Cancelled at shutdown: its connection is closed and the release gives it back.
      if (result.cancelled) return void (entry.cancelled = true);
      const next = await recordTried(claimed, result, at, mayRefill(claimed));
      if (!next) return;
      held.delete(channel.key(claimed));
      entry.claimed = next;
      held.set(channel.key(next), entry);
      // Leased as shutdown began: not sent, given back by the release with what else was open.
      if (stopping) return void (entry.cancelled = true);
      entry.sending = true;
    }
  }

  async function recordTried(claimed: C, result: SendResult, at: Date, refill: boolean): Promise<C | void> {
    for (let tries = 1; ; tries++) {
      try {
        return await channel.record(claimed, result, at, refill);
      } catch (err) {
        // The lease runs out if every try fails, and the next claim is a new attempt: at least once still holds.
        if (tries >= RECORD_TRIES) throw err;
        await new Promise((resolve) => setTimeout(resolve, 200 * tries));
      }
    }
  }

  async function pass(): Promise<number> {
    const room = processBudget.reserve(Math.min(claimLimit, maxInFlight - held.size), wake);
    if (room <= 0) return 0;
    let claimed: C[] = [];
    try {
      claimed = await channel.claim(room);
      sole = soleTarget(claimed, room);
    } finally {
      // Less work than room: this loop waits for nothing, so the sends that end may refill.
      if (claimed.length < room) processBudget.satisfied(wake);
      processBudget.free(room - claimed.length);
    }
    for (const c of claimed) {
      const key = channel.key(c);
      const entry: Held<C> = {
        claimed: c,
        cancel: new AbortController(),
        sending: true,
        cancelled: false,
        done: null!,
      };
      held.set(key, entry);
      entry.done = attempt(entry)
        .catch((err: unknown) =>
          console.error(`${channel.name} delivery ${channel.key(entry.claimed)}: attempt not recorded.`, err),
        )
        .finally(() => {
          if (entry.cancelled) return;
          held.delete(channel.key(entry.claimed));
          processBudget.free(1);
          wake();
        });
    }
    return claimed.length;
  }

  async function release(): Promise<void> {
    stopping = true;
    const deadline = Date.now() + SHUTDOWN_GRACE_MS;
    while (held.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const open = [...held.values()];
    for (const entry of open) if (entry.sending) entry.cancel.abort();
    await Promise.race([
      Promise.all(open.map((entry) => entry.done)),
      new Promise((resolve) => setTimeout(resolve, RECORD_GRACE_MS).unref()),
    ]);
    const cancelled = open.filter((entry) => entry.cancelled);
    for (const entry of cancelled) held.delete(channel.key(entry.claimed));
    processBudget.free(cancelled.length);
    await Promise.all(cancelled.map((entry) => channel.release(entry.claimed)));
  }

  return {
    job: {
      name: `deliver-${channel.name}`,
      everyMs,
      run: pass,
      again: (claimed) => typeof claimed === 'number' && claimed >= Math.min(claimLimit, maxInFlight) && claimed > 0,
      release,
      wakeWith: (w) => (wake = w),
      wakeDelayMs: WAKE_DELAY_MS,
    },
    inFlight: () => held.size,
    wake: () => wake(),
  };
}
