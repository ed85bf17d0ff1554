import { settings } from '../settings/settings';

/**
 * The room one process has for open deliveries, shared by every channel's loop: a loop reserves room before it
 * claims (so two loops claiming at once cannot both take the last of it), gives back what its claim did not use,
 * and frees one place as each delivery ends. A loop that got less than it asked for is woken when room frees.
 */
export function deliveryBudget(max: () => number) {
  let open = 0;
  const waiting = new Set<() => void>();
  return {
    open: () => open,
    /** Whether a loop got less room than it asked for and waits for more. */
    awaited: () => waiting.size > 0,
    /** Whether the only loop waiting for more room is the one `wake` belongs to. */
    awaitedOnlyBy: (wake: () => void) => waiting.size === 1 && waiting.has(wake),
    /** Up to `wanted` places, taken now; `wake` is called once room frees if fewer were left. */
    reserve(wanted: number, wake: () => void): number {
      const room = Math.max(0, Math.min(wanted, max() - open));
      if (room < wanted) waiting.add(wake);
      open += room;
      return room;
    },
    /** The loop `wake` belongs to found less work than it had room for: it no longer waits for more. */
    satisfied(wake: () => void): void {
      waiting.delete(wake);
    },
    free(places: number): void {
      if (places <= 0) return;
      open -= places;
      const woken = [...waiting];
      waiting.clear();
      for (const w of woken) w();
    },
  };
}

/** This process's budget: QUEUE_MAX_IN_FLIGHT, read when a loop claims (tests change it between runs). */
export const processBudget = deliveryBudget(() => settings().QUEUE_MAX_IN_FLIGHT);
