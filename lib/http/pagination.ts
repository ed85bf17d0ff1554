import { and, eq, gt, lt, or, type Column, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { ApiError } from './errors';

/** `limit` (1..100, default 50) and an opaque `cursor`, shared by every list endpoint. */
export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().max(200).optional(),
});

export type PageQuery = z.output<typeof pageQuery>;

/** The envelope every list answers: `{ items, nextCursor }`. */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() });
export type Page<T> = z.infer<ReturnType<typeof pageOf<z.ZodType<T>>>>;

type Position = { at: string; id: string };

export function encodeCursor(position: { at: Date; id: string }): string {
  return Buffer.from(JSON.stringify({ at: position.at.toISOString(), id: position.id })).toString('base64url');
}

/** The position a cursor names; 400 `invalid_cursor` for anything this API did not hand out. */
export function decodeCursor(cursor: string): { at: Date; id: string } {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Position;
    const at = new Date(value.at);
    if (typeof value.id !== 'string' || !/^[0-9a-f-]{36}$/i.test(value.id) || Number.isNaN(at.getTime()))
      throw new Error();
    return { at, id: value.id };
  } catch {
    throw new ApiError('invalid_cursor');
  }
}

/** Keyset condition: rows strictly after the cursor in (at, id) order, newest first or oldest first. */
export function afterCursor(
  cursor: string | undefined,
  at: Column,
  id: Column,
  order: 'asc' | 'desc',
): SQL | undefined {
  if (!cursor) return undefined;
  const position = decodeCursor(cursor);
  const beyond = order === 'desc' ? lt : gt;
  return or(beyond(at, position.at), and(eq(at, position.at), beyond(id, position.id)));
}

/** Turns `limit + 1` fetched rows into a page; the extra row only says whether there is more. */
export function toPage<R extends { id: string }, T>(
  rows: R[],
  limit: number,
  at: (row: R) => Date,
  map: (row: R) => T,
): Page<T> {
  const more = rows.length > limit;
  const items = more ? rows.slice(0, limit) : rows;
  const last = items[items.length - 1];
  return { items: items.map(map), nextCursor: more && last ? encodeCursor({ at: at(last), id: last.id }) : null };
}
