import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetSettings } from '../settings/settings';
import { processBudget } from './budget';
import { deliveryLoop, type DeliveryChannel } from './engine';
import { sendResult } from '../../server/testing/send-results';

type Work = { id: string; target: string };

const SENT = sendResult(204, { durationMs: 0 });

/**
 * A channel whose targets each have `backlog` deliveries: a claim serves the targets in turn (each one's first, then
 * the seconds), as the subscriptions' claim does, and a record asked to refill leases the same target's next. It
 * keeps, per record, whether the engine asked for a refill.
 */
function channelOf(targets: string[], backlog: number) {
  const left = new Map(targets.map((t) => [t, backlog]));
  let made = 0;
  const take = (target: string): Work | undefined => {
    const n = left.get(target) ?? 0;
    if (n === 0) return undefined;
    left.set(target, n - 1);
    return { id: String(made++), target };
  };
  const refills: { target: string; refill: boolean }[] = [];
  let first = 0;
  const channel: DeliveryChannel<Work> = {
    name: 'test',
    async claim(limit) {
      const claimed: Work[] = [];
      // Each claim starts its turns one target further on, as the subscriptions' line moves.
      const line = [...targets.slice(first), ...targets.slice(0, first)];
      first = (first + 1) % targets.length;
      for (let found = true; found && claimed.length < limit;) {
        found = false;
        for (const t of line) {
          const work = claimed.length < limit ? take(t) : undefined;
          if (!work) continue;
          claimed.push(work);
          found = true;
        }
      }
      return claimed;
    },
    key: (work) => work.id,
    outgoing: () => ({ transport: () => new Promise((resolve) => setTimeout(() => resolve(SENT), 2)) }),
    async record(work, _result, _at, refill) {
      refills.push({ target: work.target, refill });
      return refill ? take(work.target) : undefined;
    },
    async release() {},
    target: (work) => work.target,
  };
  const done = () => [...left.values()].every((n) => n === 0);
  const add = (target: string, n: number) => left.set(target, (left.get(target) ?? 0) + n);
  return { channel, refills, done, add };
}

/** Runs `channel`'s loop, a pass at each wake, until `done` and nothing is in flight. */
async function drain(channel: DeliveryChannel<Work>, done: () => boolean, everyMs = 60_000) {
  const loop = deliveryLoop(channel, { everyMs, maxInFlight: Number.MAX_SAFE_INTEGER, claimLimit: 100 });
  const { run, wakeWith } = loop.job;
  if (!run || !wakeWith) throw new Error('a delivery loop runs passes and is woken');
  let woken = true;
  wakeWith(() => (woken = true));
  for (let i = 0; i < 10_000 && !(done() && loop.inFlight() === 0); i++) {
    if (woken) {
      woken = false;
      await run();
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  expect(done()).toBe(true);
  expect(loop.inFlight()).toBe(0);
  expect(processBudget.open()).toBe(0);
}

describe('deliveryLoop with a full budget (QUEUE_MAX_IN_FLIGHT 4)', () => {
  beforeEach(() => {
    process.env.QUEUE_MAX_IN_FLIGHT = '4';
    resetSettings();
  });
  afterEach(() => {
    delete process.env.QUEUE_MAX_IN_FLIGHT;
    resetSettings();
  });

  it('refills while the work that filled the room is one target’s alone', async () => {
    const { channel, refills, done } = channelOf(['a'], 40);
    await drain(channel, done);
    expect(refills).toHaveLength(40);
    // The first claim filled the room with a's work: its sends refill, until a's backlog ends.
    expect(refills.filter((r) => r.refill).length).toBeGreaterThanOrEqual(36);
  });

  it('gives the room back to a claim once `everyMs` has passed, so a target whose work came later is served', async () => {
    const { channel, refills, done, add } = channelOf(['a', 'b'], 0);
    add('a', 400);
    const claim = channel.claim.bind(channel);
    let claims = 0;
    // b's work comes after the first claim, which a's work alone filled.
    channel.claim = async (limit) => {
      const claimed = await claim(limit);
      if (++claims === 1) add('b', 4);
      return claimed;
    };
    await drain(channel, done, 20);
    const lastOf = (target: string) => refills.map((r) => r.target).lastIndexOf(target);
    expect(refills).toHaveLength(404);
    // b was served while a still had most of its backlog, not after it.
    expect(lastOf('b')).toBeLessThan(lastOf('a') - 100);
    expect(refills.filter((r) => r.refill).length).toBeGreaterThan(200);
  });
});
