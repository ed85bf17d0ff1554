import type { z } from 'zod';

/**
 * A text's length in characters (Unicode code points), as the spec's limits and JSON Schema's `maxLength`
 * count them: an emoji is one character, though JavaScript's `length` counts its two UTF-16 units.
 */
export function characterCount(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++, count++) {
    // A surrogate pair is one code point above U+FFFF; a lone surrogate counts as one, as it is one unit.
    if (text.codePointAt(i)! > 0xffff) i++;
  }
  return count;
}

/**
 * `schema` allowing at most `max` characters, counted as `characterCount` does rather than as zod's `.max()`
 * (UTF-16 units, which would refuse 60 emoji as over 100). The OpenAPI document still says `maxLength: max`.
 */
export function atMostCharacters<T extends z.ZodString>(schema: T, max: number, message: string): T {
  // A text of at most `max` units has at most `max` characters: only longer ones need counting.
  return schema
    .refine((text) => text.length <= max || characterCount(text) <= max, { message })
    .meta({ maxLength: max }) as T;
}
