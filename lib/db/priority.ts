import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Requests first: work that no request waits for (background passes, the usage flush, ANALYZE) runs inside
 * `inBackground`, and on the embedded database each of its statements starts only when no request's statement is
 * waiting (lib/db/pglite-thread.ts), so a request queues behind at most the one background statement already
 * running. PostgreSQL runs statements side by side and needs no such order.
 */
const background = ((globalThis as unknown as { __svcBackground?: AsyncLocalStorage<true> }).__svcBackground ??=
  new AsyncLocalStorage<true>());

export function inBackground<T>(work: () => Promise<T>): Promise<T> {
  return background.run(true, work);
}

export function isBackground(): boolean {
  return background.getStore() === true;
}
