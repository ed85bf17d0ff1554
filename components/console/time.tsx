'use client';

import { useEffect, useState, useSyncExternalStore } from 'react';
import { exactTime, relativeTime, shortDate, shortDateUtc } from '@/lib/format/time';

/** The clock, re-read every minute so "ends in 3 hours" or "expires within 7 days" stays true on an open page. */
export function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** A date as words, with the exact instant on hover and for assistive technology. */
export function RelativeTime({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={exactTime(iso)}>
      {relativeTime(iso)}
    </time>
  );
}

const noSubscription = () => () => {};

/** False while React hydrates what the server rendered, true from then on and in every later render. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

/**
 * A day ("Nov 25, 2026") in the reader's time zone, in a list the server renders: the server does not know the
 * reader's zone and hydration must match what it sent, so the server's HTML and the hydrating render show the UTC
 * day, and the browser's own follows at once (the same text wherever the zone puts the instant on the same day).
 */
export function LocalDate({ iso }: { iso: string }) {
  const hydrated = useHydrated();
  return <time dateTime={iso}>{hydrated ? shortDate(iso) : shortDateUtc(iso)}</time>;
}
