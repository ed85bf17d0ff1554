import { parseUtcInstant } from '../silences/time';

// Any RFC 3339 date-time: an offset or Z, up to nine fractional digits (Go's time.RFC3339Nano, as amtool writes).
const RFC3339 = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?([Zz]|([+-])(\d{2}):(\d{2}))$/;

/**
 * The instant an RFC 3339 time names, truncated to the millisecond this project keeps, or null when it is
 * malformed or not a real calendar time. The calendar check is the /v1 parser's, on the local wall time.
 */
export function parseRfc3339(text: string): Date | null {
  const m = RFC3339.exec(text);
  if (!m) return null;
  const [, date, time, fraction = '', , sign, hours, minutes] = m;
  const wall = parseUtcInstant(`${date}T${time}.${fraction.slice(0, 3).padEnd(3, '0')}Z`);
  if (!wall || (hours !== undefined && (Number(hours) > 23 || Number(minutes) > 59))) return null;
  const offsetMs = sign ? (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes)) * 60_000 : 0;
  return new Date(wall.getTime() - offsetMs);
}
