import { randomInt } from 'node:crypto';
import type { ShortIdPrefix } from './short-ids';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** `<prefix>_` followed by 12 random characters of [a-z0-9], e.g. `qsb_4k2m9x0a7bqz`. */
export function newSlug(prefix: ShortIdPrefix): string {
  let out = '';
  for (let i = 0; i < 12; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return `${prefix}_${out}`;
}
