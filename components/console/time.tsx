'use client';

import { useEffect, useState } from 'react';

/** The clock, re-read every minute so "ends in 3 hours" or "expires within 7 days" stays true on an open page. */
export function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

// Built once: a formatter costs about 80 µs to build and 2 µs to use, and a list formats a few dates per row
// (`toLocaleString` with options builds one on every call).
const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const exact = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'long' });
const short = new Intl.DateTimeFormat('en', { dateStyle: 'medium' });

/** "3 minutes ago", "in 2 days"; under a minute, "just now". */
export function relativeTime(iso: string, now = Date.now()): string {
  const diff = new Date(iso).getTime() - now;
  for (const [unit, ms] of UNITS) if (Math.abs(diff) >= ms) return relative.format(Math.round(diff / ms), unit);
  return 'just now';
}

export function exactTime(iso: string): string {
  return exact.format(new Date(iso));
}

export function shortDate(iso: string): string {
  return short.format(new Date(iso));
}

/** A date as words, with the exact instant on hover and for assistive technology. */
export function RelativeTime({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={exactTime(iso)}>
      {relativeTime(iso)}
    </time>
  );
}
