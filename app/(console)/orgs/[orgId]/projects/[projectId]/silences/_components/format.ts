import { format } from 'date-fns';
import { relativeTime } from '@/lib/format/time';
import type { Silence } from '@/lib/silences/schema';

/** What a row says about time: when it starts, how long it has left, or when it ended. */
export function timeLeft(silence: Pick<Silence, 'state' | 'startsAt' | 'endsAt'>, now: number): string {
  if (silence.state === 'scheduled') return `starts ${relativeTime(silence.startsAt, now)}`;
  if (silence.state === 'active') return `ends ${relativeTime(silence.endsAt, now)}`;
  return `ended ${relativeTime(silence.endsAt, now)}`;
}

/** `YYYY-MM-DDTHH:mm` in the browser's time zone, as `<input type="datetime-local">` wants. */
export function toLocalInput(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : format(d, "yyyy-MM-dd'T'HH:mm");
}

/** The UTC instant of a local `datetime-local` value, in the API's millisecond form. */
export function fromLocalInput(value: string): string {
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString();
}
