/** One caller's share of a coalesced call: the call's result, and the caller's place among those that shared it. */
export type Share<R> = { result: R; index: number; callers: number };

type Batch<R> = { callers: number; promise: Promise<R>; settle: (call: Promise<R>) => void };
type Lane<R> = { running: boolean; waiting: Batch<R> | null };

/**
 * Joins concurrent callers of one key into one call, issued only after every one of them arrived: while a
 * call for the key is in flight, newcomers wait for it to settle and then share the next call. So each
 * caller's answer comes from a call that started after it asked (a read sees every change committed before
 * the caller arrived, as its own read would), and under load one round trip serves many requests instead
 * of one each. Callers in one batch are told their place in arrival order, and how many shared the call.
 */
export class Coalescer<K, R> {
  private readonly lanes = new Map<K, Lane<R>>();

  constructor(private readonly call: (key: K, callers: number) => Promise<R>) {}

  join(key: K): Promise<Share<R>> {
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { running: false, waiting: null };
      this.lanes.set(key, lane);
    }
    if (!lane.waiting) {
      lane.waiting = newBatch<R>();
      // Started after this tick, so callers arriving in the same tick still join it.
      if (!lane.running) queueMicrotask(() => this.launch(key));
    }
    const batch = lane.waiting;
    const index = batch.callers++;
    // Nobody joins a batch once its call has started, so its count is final when the result arrives.
    return batch.promise.then((result) => ({ result, index, callers: batch.callers }));
  }

  private launch(key: K): void {
    const lane = this.lanes.get(key);
    const batch = lane?.waiting;
    if (!lane || !batch) return;
    lane.waiting = null;
    lane.running = true;
    const call = Promise.resolve().then(() => this.call(key, batch.callers));
    batch.settle(call);
    const next = () => {
      lane.running = false;
      if (lane.waiting) this.launch(key);
      else this.lanes.delete(key);
    };
    call.then(next, next);
  }
}

function newBatch<R>(): Batch<R> {
  let settle!: (call: Promise<R>) => void;
  const promise = new Promise<R>((resolve) => {
    settle = resolve;
  });
  return { callers: 0, promise, settle };
}
