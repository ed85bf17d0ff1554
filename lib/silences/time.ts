import { z } from 'zod';

// RFC 3339 in UTC only: an upper-case `T` and `Z`, no offset, at most millisecond precision.
const UTC_INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?Z$/;

/** The instant a strict UTC timestamp names, or null when it is malformed or not a real calendar time. */
export function parseUtcInstant(text: string): Date | null {
  const m = UTC_INSTANT.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const ms = Number((m[7] ?? '0').padEnd(3, '0'));
  const date = new Date(Date.UTC(2000, 0, 1, hour, minute, second, ms));
  // Date.UTC maps years 0-99 to 1900-1999; setUTCFullYear takes the year as written (RFC 3339 allows 0000).
  date.setUTCFullYear(year, month - 1, day);
  // Both roll 2025-02-30 over to March: a round trip catches impossible dates and times.
  const same =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second;
  return same ? date : null;
}

export const utcTimestamp = z
  .string()
  .refine((text) => parseUtcInstant(text) !== null, {
    message:
      'Use an RFC 3339 time in UTC ending in upper-case Z with at most 3 fractional digits, e.g. 2030-01-31T14:00:00.000Z.',
  })
  .meta({ format: 'date-time', example: '2030-01-31T14:00:00.000Z' });

/** Every time the API answers: `YYYY-MM-DDTHH:MM:SS.mmmZ`. */
export const formatInstant = (date: Date): string => date.toISOString();
