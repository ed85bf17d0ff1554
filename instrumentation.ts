/** Opens, locks and migrates the database when the server starts, so a locked DATA_DIR fails fast. */
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') await import('./server/start');
}
