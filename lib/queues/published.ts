/**
 * Who is told, after a publish commits, that a queue has new messages: this instance's delivery loop, so it looks
 * at once instead of at its next pass. Other instances find the messages on their own next pass.
 */
export type PublishedListener = (queueId: string) => void;

// On globalThis: Next may load this module once per route bundle, and start-up's listener must hear every copy.
const slot = globalThis as unknown as { __svcPublishedListeners?: Set<PublishedListener> };
const listeners = () => (slot.__svcPublishedListeners ??= new Set());

/** Adds a listener; the function returned removes it. */
export function onPublished(listener: PublishedListener): () => void {
  listeners().add(listener);
  return () => void listeners().delete(listener);
}

/** Tells every listener; one that throws is not the publisher's failure, so the others still hear. */
export function notifyPublished(queueId: string): void {
  for (const listener of listeners()) {
    try {
      listener(queueId);
    } catch {
      // A wake-up is a hint: the listener's own next pass finds the messages anyway.
    }
  }
}
