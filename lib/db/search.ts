/** `text` as a LIKE pattern that matches it literally: `%`, `_` and the escape character lose their meaning. */
function literal(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A LIKE/ILIKE pattern for any text containing `text` (a trigram index serves it from three characters). */
export const containsPattern = (text: string) => `%${literal(text)}%`;

/** A LIKE pattern for any text starting with `text` (a `text_pattern_ops` btree serves it as a range). */
export const startsWithPattern = (text: string) => `${literal(text)}%`;
