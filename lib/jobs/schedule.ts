/** How often the housekeeping passes (deleting what outlived its use) run in each process. */
export const HOUSEKEEPING_EVERY_MS = 15 * 60_000;
