import { format, formatDistanceStrict } from 'date-fns';

/*
 * How the console writes dates, in the browser's time zone. date-fns rather than Intl on purpose: the first Intl
 * formatter a page builds costs Chromium 40-130 ms of one main-thread task to load its locale data (measured on
 * this project's machines; every later one costs microseconds), which a phone's slower CPU makes several hundred
 * milliseconds of blocked page on every console page that shows a date. date-fns formats from the Date's own
 * fields with its English tables: no such start-up. The console speaks English only, so nothing is lost.
 */

/** "Nov 25, 2026". */
export function shortDate(iso: string): string {
  return format(new Date(iso), 'MMM d, yyyy');
}

/**
 * The same day as `shortDate` gives in UTC: what a page rendered on the server shows until the browser, which
 * knows its reader's time zone, takes over (`LocalDate` in components/console/time.tsx).
 */
export function shortDateUtc(iso: string): string {
  const d = new Date(iso);
  return format(new Date(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()), 'MMM d, yyyy');
}

/** "Nov 25, 2026, 2:15 PM". */
export function localTime(iso: string): string {
  return format(new Date(iso), 'MMM d, yyyy, h:mm a');
}

/** "Nov 25, 2026, 2:15:22 PM GMT+01:00": the instant to the second, with the offset it is shown in. */
export function exactTime(iso: string): string {
  return format(new Date(iso), 'MMM d, yyyy, h:mm:ss a OOOO');
}

/**
 * "3 minutes ago", "in 2 days", "in 30 seconds"; under a minute in the past, "just now". Each unit is rounded:
 * 90 minutes is "in 2 hours".
 */
export function relativeTime(iso: string, now = Date.now()): string {
  const at = new Date(iso);
  const diff = at.getTime() - now;
  if (diff <= 0 && diff > -60_000) return 'just now';
  return formatDistanceStrict(at, now, { addSuffix: true, roundingMethod: 'round' });
}
