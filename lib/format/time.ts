import { UTCDateMini } from '@date-fns/utc/date/mini';
import { format, formatDistanceStrict } from 'date-fns';

/*
 * How the console writes dates, in the browser's time zone. date-fns rather than Intl on purpose: the first Intl
 * formatter a page builds holds Chromium's main thread while it loads its locale data (docs/benchmarks.md, "Measured
 * reasons in the code"), longer on a phone's slower CPU, on every console page that shows a date. date-fns formats
 * from the Date's own fields with its English tables: no such start-up. The console speaks English only, so
 * nothing is lost.
 */

/**
 * Where a date is read: the reader's own zone, or UTC. A page rendered on the server shows UTC, the one zone the
 * server and the hydrating browser agree on, until the browser, which knows its reader's zone, takes over
 * (components/console/time.tsx).
 */
export type Zone = 'local' | 'utc';

/**
 * The instant, as a Date whose fields read in `zone`. UTC through @date-fns/utc's mini date (no Intl, unlike its
 * full one): rebuilding a local Date from the UTC fields would move an hour that a local clock skips (a summer-time
 * change) and break hydration in that zone.
 */
function inZone(iso: string, zone: Zone): Date {
  return zone === 'utc' ? new UTCDateMini(iso) : new Date(iso);
}

/** "Nov 25, 2026". */
export function shortDate(iso: string, zone: Zone = 'local'): string {
  return format(inZone(iso, zone), 'MMM d, yyyy');
}

/** "Nov 25, 2026, 2:15 PM". */
export function localTime(iso: string, zone: Zone = 'local'): string {
  return format(inZone(iso, zone), 'MMM d, yyyy, h:mm a');
}

/** "Nov 25, 2026, 2:15:22 PM GMT+01:00": the instant to the second, with the offset it is shown in. */
export function exactTime(iso: string, zone: Zone = 'local'): string {
  return format(inZone(iso, zone), 'MMM d, yyyy, h:mm:ss a OOOO');
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

/**
 * `relativeTime` of something that has already happened, against a page's clock that may lag behind it (the clock
 * moves by the minute): "just now", never "in 54 seconds".
 */
export function pastTime(iso: string, now = Date.now()): string {
  return relativeTime(iso, Math.max(now, new Date(iso).getTime()));
}

/**
 * How long ago `iso` was, without "ago", rounded down: "3 minutes", "2 hours"; "under a minute" below one (a page's
 * clock moves by the minute, components/console/time.tsx).
 */
export function age(iso: string, now = Date.now()): string {
  const at = new Date(iso);
  if (now - at.getTime() < 60_000) return 'under a minute';
  return formatDistanceStrict(at, now, { roundingMethod: 'floor' });
}

/** "14:05": a minute on a chart's axis, on the 24-hour clock. */
export function clockMinute(iso: string, zone: Zone = 'local'): string {
  return format(inZone(iso, zone), 'HH:mm');
}

/** "Nov 25, 14:05:22": an event of the last day, to the second, on the 24-hour clock. */
export function dayAndSecond(iso: string, zone: Zone = 'local'): string {
  return format(inZone(iso, zone), 'MMM d, HH:mm:ss');
}
