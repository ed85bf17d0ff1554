import { sql, type Column, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { atMostCharacters } from '../characters';
import { cursorCodec, dateOf, fieldOf } from './cursor';

/** `limit` (1..100, default 50) and an opaque `cursor`, shared by every list endpoint. */
export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().max(200).optional(),
});

export type PageQuery = z.output<typeof pageQuery>;

/** A list's `q`: 1..100 characters, combined with its other filters; each list says what it matches. */
export const searchQuery = (description: string) =>
  atMostCharacters(z.string().min(1, 'Enter at least one character.'), 100, 'At most 100 characters.')
    // What a query's invalid UTF-8 arrives as here (the request URL is decoded leniently before route() sees it).
    .refine((text) => !text.includes('\ufffd'), 'The text is not valid UTF-8.')
    .optional()
    .meta({
      description: `${description} A \`q\` of one or two characters examines a bounded stretch of the list per request: a page may hold fewer items than \`limit\`, even none, and still have a \`nextCursor\`; only a null \`nextCursor\` ends the matches.`,
    });

/** The envelope every list answers: `{ items, nextCursor }`. */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() });
export type Page<T> = z.infer<ReturnType<typeof pageOf<z.ZodType<T>>>>;

const UUID = /^[0-9a-f-]{36}$/i;

/** A keyset list's cursor: the (at, id) of the last item served. */
const positionCursor = cursorCodec<{ at: Date; id: string }>(
  (position) => ({ at: position.at.toISOString(), id: position.id }),
  (value) => {
    const at = dateOf(fieldOf(value, 'at'));
    const id = fieldOf(value, 'id');
    return at && typeof id === 'string' && UUID.test(id) ? { at, id } : null;
  },
);

export const encodeCursor = positionCursor.encode;

/** The position a cursor names; 400 `invalid_cursor` for anything this API did not hand out. */
export const decodeCursor = positionCursor.decode;

/**
 * Rows strictly beyond a position in (at, id) order, as one row comparison: `(at, id) < ($at, $id)` newest
 * first, `>` oldest first. An index ending in (at, id) serves it as a range, so a page costs the same at any
 * depth (the `at < $at or (at = $at and id < $id)` spelling is a filter the planner scans up to). `at` and
 * `id` are values or `sql.placeholder()`s of a prepared statement.
 */
export function beyondPosition(
  at: Column,
  id: Column,
  order: 'asc' | 'desc',
  position: { at: unknown; id: unknown },
): SQL {
  const beyond = sql.raw(order === 'desc' ? '<' : '>');
  return sql`(${at}, ${id}) ${beyond} (${position.at}::timestamptz, ${position.id}::uuid)`;
}

/** The keyset condition of a list's cursor, or none on its first page (see `beyondPosition`). */
export function afterCursor(
  cursor: string | undefined,
  at: Column,
  id: Column,
  order: 'asc' | 'desc',
): SQL | undefined {
  if (!cursor) return undefined;
  const position = decodeCursor(cursor);
  return beyondPosition(at, id, order, { at: position.at.toISOString(), id: position.id });
}

/**
 * Turns `limit + 1` fetched rows into a page; the extra row only says whether there is more. `resumeAt`: a search
 * stopped at that position with fewer rows (lib/db/search.ts), so the next page starts after it.
 */
export function toPage<R extends { id: string }, T>(
  rows: R[],
  limit: number,
  at: (row: R) => Date,
  map: (row: R) => T,
  resumeAt: { at: Date; id: string } | null = null,
): Page<T> {
  const more = rows.length > limit;
  const items = more ? rows.slice(0, limit) : rows;
  const last = items[items.length - 1];
  const next = more && last ? { at: at(last), id: last.id } : resumeAt;
  return { items: items.map(map), nextCursor: next ? encodeCursor(next) : null };
}
