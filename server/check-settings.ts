import { settings, SettingsError } from '../lib/settings/settings';

/**
 * Reads every setting before anything else loads; a bad value stops the start with one line per refused variable
 * (its name, what it got, what it takes) and exit code 1, instead of a NaN somewhere at run time.
 */
export function refuseBadSettings(): void {
  try {
    settings();
  } catch (err) {
    if (!(err instanceof SettingsError)) throw err;
    console.error(err.message);
    process.exit(1);
  }
}
