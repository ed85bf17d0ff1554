const state = globalThis as unknown as { __svcBackgroundStopped?: boolean; __svcShuttingDown?: boolean };

/**
 * Called by the server's shutdown before it closes the database: a background pass (housekeeping, webhook
 * delivery, email) that comes due afterwards must not open the database again while the process exits.
 */
export function stopBackgroundJobs(): void {
  state.__svcBackgroundStopped = true;
}

/** From SIGTERM on (scripts/start.mjs) nothing new is claimed: what is left is for the instances that stay. */
export function backgroundJobsStopped(): boolean {
  return state.__svcBackgroundStopped === true || state.__svcShuttingDown === true;
}
