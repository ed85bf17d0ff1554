'use client';

import { useEffect, useState } from 'react';
import { exactTime, relativeTime } from '@/lib/format/time';

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
