'use client';

import { createContext, useContext, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { exactTime, localTime, pastTime, shortDate, type Zone } from '@/lib/format/time';

/*
 * Dates in pages the server renders. The server knows neither the reader's time zone nor the instant the browser
 * hydrates, and hydration must produce exactly the text the server sent, or React throws the server's HTML away
 * and renders the page again. So the server's HTML and the hydrating render read dates in UTC and relative times
 * against the server's clock (`ServerClock`); the render right after hydration switches to the reader's zone and
 * clock. Outside a server render (a page opened by navigation, a dialog) the reader's are used from the start.
 */

const noSubscription = () => () => {};

/** False while React hydrates what the server rendered, true from then on and in every later render. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

/** The zone to read dates in: UTC on the server and while hydrating, the reader's own after. */
export function useZone(): Zone {
  return useHydrated() ? 'local' : 'utc';
}

const ServerNow = createContext<number | null>(null);

/** The server's clock when it rendered the page (server/console/prefetched.tsx): "now" until hydrated. */
export function ServerClock({ now, children }: { now: number; children: ReactNode }) {
  return <ServerNow.Provider value={now}>{children}</ServerNow.Provider>;
}

/**
 * The clock, re-read every minute so "ends in 3 hours" or "expires within 7 days" stays true on an open page; the
 * server's while hydrating a page it rendered.
 */
export function useNow(): number {
  const serverNow = useContext(ServerNow);
  const hydrated = useHydrated();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return hydrated || serverNow === null ? now : serverNow;
}

/**
 * The date of something that has happened, as words, with the exact instant on hover and for assistive technology:
 * never in the future, however far the page's clock lags behind the event.
 */
export function RelativeTime({ iso }: { iso: string }) {
  const now = useNow();
  return (
    <time dateTime={iso} title={exactTime(iso, useZone())}>
      {pastTime(iso, now)}
    </time>
  );
}

/** `RelativeTime` of something that may not have happened yet: a key never used, a subscription never delivered. */
export function TimeAgo({ iso }: { iso: string | null }) {
  if (!iso) return <span className="text-slate-500">Never</span>;
  return <RelativeTime iso={iso} />;
}

/** A day ("Nov 25, 2026") in the reader's time zone, with the exact instant on hover if `exact`. */
export function LocalDate({ iso, exact = false }: { iso: string; exact?: boolean }) {
  const zone = useZone();
  return (
    <time dateTime={iso} title={exact ? exactTime(iso, zone) : undefined}>
      {shortDate(iso, zone)}
    </time>
  );
}

/** A day and minute ("Nov 25, 2026, 2:15 PM") in the reader's time zone, with the UTC instant on hover. */
export function LocalTime({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={iso}>
      {localTime(iso, useZone())}
    </time>
  );
}

/** The instant to the second with its offset ("Nov 25, 2026, 2:15:22 PM GMT+01:00") in the reader's time zone. */
export function ExactTime({ iso }: { iso: string }) {
  return <time dateTime={iso}>{exactTime(iso, useZone())}</time>;
}
