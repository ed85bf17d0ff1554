const state = globalThis as unknown as { __svcBackgroundStopped?: boolean };

/**
 * Called by the server's shutdown before it closes the database: a background pass (housekeeping, webhook
 * delivery, email) that comes due afterwards must not open the database again while the process exits.
 */
export function stopBackgroundJobs(): void {
  state.__svcBackgroundStopped = true;
}

export function backgroundJobsStopped(): boolean {
  return state.__svcBackgroundStopped === true;
}
