/** Checks the settings, then opens, locks and migrates the database when the server starts, so either fails fast. */
export async function register() {
  // `next build` loads this too: nothing starts then.
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.NEXT_PHASE === 'phase-production-build') return;
  // Before server/start.ts's imports: some of them read settings as they load.
  (await import('./server/check-settings')).refuseBadSettings();
  await import('./server/start');
}
