import { ApiError } from '../errors';

/**
 * A list's opaque cursor: the position of the last item served, as JSON in base64url. `write` gives the JSON
 * of a position; `read` takes parsed JSON back to a position, or null for anything this API did not hand
 * out, which `decode` answers with 400 `invalid_cursor`.
 */
export function cursorCodec<Position>(
  write: (position: Position) => unknown,
  read: (value: unknown) => Position | null,
) {
  return {
    encode: (position: Position): string => Buffer.from(JSON.stringify(write(position))).toString('base64url'),
    decode(cursor: string): Position {
      let position: Position | null = null;
      try {
        position = read(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
      } catch {
        // not JSON: the error below
      }
      if (position === null) throw new ApiError('invalid_cursor');
      return position;
    },
  };
}

/** A field of a decoded cursor's JSON, whatever that JSON was. */
export function fieldOf(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

/** A date a cursor carries as ISO text, or null. */
export function dateOf(text: unknown): Date | null {
  if (typeof text !== 'string') return null;
  const at = new Date(text);
  return Number.isNaN(at.getTime()) ? null : at;
}
