import type { Issue } from '../errors';
import { textProblem } from './text';

const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

/** One `application/x-www-form-urlencoded` component as strict UTF-8, or null when its bytes are not UTF-8. */
function decodeComponent(text: string): string | null {
  const bytes: number[] = [];
  const plain = text.replace(/\+/g, ' ');
  for (let at = 0; at < plain.length;) {
    const escape = plain[at] === '%' ? /^[0-9a-fA-F]{2}$/.exec(plain.slice(at + 1, at + 3)) : null;
    if (escape) {
      bytes.push(parseInt(escape[0], 16));
      at += 3;
    } else {
      const char = String.fromCodePoint(plain.codePointAt(at)!);
      bytes.push(...encoder.encode(char));
      at += char.length;
    }
  }
  try {
    return fatal.decode(new Uint8Array(bytes));
  } catch {
    return null;
  }
}

/**
 * A query string or form body decoded strictly: URLSearchParams turns `%FF` into U+FFFD and `%00` into a
 * NUL without a word; here each such name or value is an issue at its name, and the rest is kept in order.
 */
export function decodeForm(text: string): { params: URLSearchParams; issues: Issue[] } {
  const params = new URLSearchParams();
  const issues: Issue[] = [];
  for (const pair of text.replace(/^\?/, '').split('&')) {
    if (pair === '') continue;
    const split = pair.indexOf('=');
    const rawName = split === -1 ? pair : pair.slice(0, split);
    const name = decodeComponent(rawName);
    const value = decodeComponent(split === -1 ? '' : pair.slice(split + 1));
    const path = name ?? rawName;
    if (name === null || value === null) issues.push({ path, message: 'The value is not valid UTF-8.' });
    else {
      const problem = textProblem(name) ?? textProblem(value);
      if (problem) issues.push({ path, message: problem });
      else params.append(name, value);
    }
  }
  return { params, issues };
}
