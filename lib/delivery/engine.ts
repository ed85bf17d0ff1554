import type { BackgroundJob } from '../jobs/runner';
import { sendSigned, type SendResult } from './send';

/** A signed POST ready to go: the engine sends it and hands the result back to its channel. */
export type OutgoingRequest = { url: string; headers: Record<string, string>; body: string; timeoutMs: number };

/**
 * What a kind of delivery (webhook events, subscription batches) plugs into the engine: how its work is claimed,
 * turned into a signed request, recorded and handed back. The engine owns the loop: how much is in flight in this
 * process, sending, and giving back what it holds at shutdown.
 */
export type DeliveryChannel<C> = {
  name: string;
  /** Claims up to `limit` deliveries for this instance, each leased so no other instance sends it meanwhile. */
  claim(limit: number): Promise<C[]>;
  key(claimed: C): string;
  /** The request to send, or why its URL is refused now (recorded as a `blocked_address` failure, never sent). */
  request(claimed: C, at: Date): OutgoingRequest | { refused: string };
  /** Records one attempt; only while the lease it claimed still holds (a second record writes nothing). */
  record(claimed: C, result: SendResult, at: Date): Promise<void>;
  /** Gives back a claim not recorded: due again at once for any instance, no attempt counted. */
  release(claimed: C): Promise<void>;
};

export type DeliveryLoop = { job: BackgroundJob; inFlight: () => number; wake: () => void };

const RECORD_TRIES = 3;
const NOT_SENT = {
  status: null,
  errorClass: 'blocked_address',
  retryAfter: null,
  durationMs: 0,
  answer: '',
  notSent: true,
} as const;
/** At shutdown, how long sends in flight may finish before what is left is handed back. */
const SHUTDOWN_GRACE_MS = 2_000;

/**
 * The delivery loop of one channel, as a background job: each pass claims as much as this process has room for
 * (`maxInFlight` in flight at once) and starts sending without waiting, so a slow target never holds back the
 * next claim; each finished send frees its room and wakes the loop. A full claim goes again at once; otherwise
 * the loop waits `everyMs` or until woken (new work published here, a send finished). A wake starts the pass after
 * `wakeDelayMs`, so sends finishing together free their room for one claim.
 */
export function deliveryLoop<C>(
  channel: DeliveryChannel<C>,
  {
    everyMs,
    maxInFlight,
    claimLimit = maxInFlight,
    wakeDelayMs = 0,
  }: { everyMs: number; maxInFlight: number; claimLimit?: number; wakeDelayMs?: number },
): DeliveryLoop {
  const held = new Map<string, C>();
  let wake: () => void = () => {};

  async function attempt(claimed: C): Promise<void> {
    const at = new Date();
    const request = channel.request(claimed, at);
    const result: SendResult =
      'refused' in request
        ? { ...NOT_SENT, error: request.refused }
        : await sendSigned(request.url, request.headers, request.body, request.timeoutMs);
    // Handed back at shutdown while it was sent: another instance may own this delivery now.
    if (!held.has(channel.key(claimed))) return;
    for (let tries = 1; ; tries++) {
      try {
        return await channel.record(claimed, result, at);
      } catch (err) {
        // The lease runs out if every try fails, and the next claim is a new attempt: at least once still holds.
        if (tries >= RECORD_TRIES) throw err;
        await new Promise((resolve) => setTimeout(resolve, 200 * tries));
      }
    }
  }

  async function pass(): Promise<number> {
    const room = Math.min(claimLimit, maxInFlight - held.size);
    if (room <= 0) return 0;
    const claimed = await channel.claim(room);
    for (const c of claimed) {
      const key = channel.key(c);
      held.set(key, c);
      void attempt(c)
        .catch((err: unknown) => console.error(`${channel.name} delivery ${key}: attempt not recorded.`, err))
        .finally(() => {
          held.delete(key);
          wake();
        });
    }
    return claimed.length;
  }

  async function release(): Promise<void> {
    const deadline = Date.now() + SHUTDOWN_GRACE_MS;
    while (held.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const left = [...held.values()];
    held.clear();
    await Promise.all(left.map((c) => channel.release(c)));
  }

  return {
    job: {
      name: `deliver-${channel.name}`,
      everyMs,
      run: pass,
      again: (claimed) => typeof claimed === 'number' && claimed >= Math.min(claimLimit, maxInFlight) && claimed > 0,
      release,
      wakeWith: (w) => (wake = w),
      wakeDelayMs,
    },
    inFlight: () => held.size,
    wake: () => wake(),
  };
}
