import type { Silence } from '@/lib/silences/schema';

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

export function relativeTime(at: string, now: number): string {
  const diff = Date.parse(at) - now;
  for (const [unit, ms] of UNITS) if (Math.abs(diff) >= ms) return relative.format(Math.round(diff / ms), unit);
  return relative.format(Math.round(diff / 1000), 'second');
}

/** What a row says about time: when it starts, how long it has left, or when it ended. */
export function timeLeft(silence: Pick<Silence, 'state' | 'startsAt' | 'endsAt'>, now: number): string {
  if (silence.state === 'scheduled') return `starts ${relativeTime(silence.startsAt, now)}`;
  if (silence.state === 'active') return `ends ${relativeTime(silence.endsAt, now)}`;
  return `ended ${relativeTime(silence.endsAt, now)}`;
}

const local = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });
export const localTime = (at: string) => local.format(new Date(at));

/** `YYYY-MM-DDTHH:mm` in the browser's time zone, as `<input type="datetime-local">` wants. */
export function toLocalInput(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The UTC instant of a local `datetime-local` value, in the API's millisecond form. */
export function fromLocalInput(value: string): string {
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString();
}
