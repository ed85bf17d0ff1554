'use client';

import { useNow, useZone } from '@/components/console/time';
import { age, exactTime } from '@/lib/format/time';

const UNITS = [
  [86_400, 'day'],
  [3_600, 'hour'],
  [60, 'minute'],
  [1, 'second'],
] as const;

/** A whole number of seconds in the largest unit that divides it: "4 days", "90 minutes", "1 hour". */
export function retentionWords(seconds: number): string {
  const [size, unit] = UNITS.find(([s]) => seconds % s === 0) ?? UNITS[3];
  const n = seconds / size;
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/** "1,234": thousands marked without Intl (its first formatter costs a phone a long task; lib/format/time.ts). */
export function count(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** How long ago `iso` was ("3 minutes"), the exact instant on hover; against the server's clock until hydrated. */
export function Age({ iso }: { iso: string }) {
  const now = useNow();
  return (
    <time dateTime={iso} title={exactTime(iso, useZone())}>
      {age(iso, now)}
    </time>
  );
}
