// The publish dialog's checks, without React: what is wrong with a body or an attribute, said where it is.

/** At most this many bytes of JSON text per body, and these many attributes (PRODUCT.md "Publish"). */
export const MAX_BODY_BYTES = 128 * 1024;
export const MAX_ATTRIBUTES = 16;
const MAX_VALUE_CHARACTERS = 256;
const ATTRIBUTE_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** Line and column (from 1) of a character offset in `text`. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

/**
 * What the JSON parser said, made readable: the engine's message without its "in JSON at position N" (or its
 * own line and column), and where the problem is as line and column, which a person can find in the editor.
 */
function parserWords(message: string, text: string): string {
  const position = /at position (\d+)/.exec(message);
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  const where = position
    ? lineAndColumn(text, Number(position[1]))
    : lineColumn
      ? { line: Number(lineColumn[1]), column: Number(lineColumn[2]) }
      : null;
  let words = message
    .replace(/^JSON\.parse: /, '')
    .replace(/ in JSON at position \d+.*$/, '')
    .replace(/ at line \d+ column \d+ of the JSON data$/, '')
    .replace(/ \(line \d+ column \d+\)$/, '')
    .replace(/, ".*" is not valid JSON$/s, '');
  words = words.charAt(0).toLowerCase() + words.slice(1);
  return where ? `${words} (line ${where.line}, column ${where.column})` : words;
}

/** Why `text` cannot be a message body, or null when it is one: any JSON value, at most 128 KiB as JSON. */
export function bodyProblem(text: string): string | null {
  if (text.trim() === '') return 'Enter the message body: any JSON value, such as {"hello": "world"}.';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `This is not valid JSON: ${parserWords(error instanceof Error ? error.message : String(error), text)}.`;
  }
  if (new TextEncoder().encode(JSON.stringify(value)).length > MAX_BODY_BYTES)
    return `The body must be at most ${MAX_BODY_BYTES / 1024} KiB as JSON.`;
  return null;
}

export type AttributeRow = { name: string; value: string };

/** The problems of each attribute row (name and value), by row; rows left wholly empty are not sent. */
export function attributeProblems(rows: readonly AttributeRow[]): { name?: string; value?: string }[] {
  const seen = new Set<string>();
  return rows.map(({ name, value }) => {
    const problems: { name?: string; value?: string } = {};
    if (name === '' && value === '') return problems;
    if (!ATTRIBUTE_NAME.test(name)) problems.name = 'A name is 1 to 64 letters, digits, “_”, “.” and “-”.';
    else if (seen.has(name)) problems.name = 'Each name once.';
    seen.add(name);
    if ([...value].length > MAX_VALUE_CHARACTERS)
      problems.value = `A value is at most ${MAX_VALUE_CHARACTERS} characters.`;
    return problems;
  });
}

/** The attributes to send: the filled rows, as the API's object of strings. */
export function attributesOf(rows: readonly AttributeRow[]): Record<string, string> {
  return Object.fromEntries(rows.filter((r) => r.name !== '' || r.value !== '').map((r) => [r.name, r.value]));
}
