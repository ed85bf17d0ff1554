import { createHash, randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * API key format (PRODUCT.md): `svc_` + 34 random base62 characters + a 6-character checksum,
 * CRC-32 (as zlib) of the random part in base62, so a leaked key is recognisable offline.
 */
export const KEY_PREFIX = 'svc_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 34;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = /^svc_[0-9A-Za-z]{40}$/;

export function toBase62(value: number, width: number): string {
  let out = '';
  let n = value;
  while (n > 0) {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out.padStart(width, '0');
}

export function checksum(random: string): string {
  return toBase62(crc32(Buffer.from(random, 'ascii')), CHECKSUM_LENGTH);
}

export function generateApiKey(): string {
  let random = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) random += BASE62[randomInt(62)];
  return KEY_PREFIX + random + checksum(random);
}

/** True when the key has the right shape and its checksum holds; no database is consulted. */
export function isWellFormedApiKey(key: string): boolean {
  if (!KEY_PATTERN.test(key)) return false;
  const random = key.slice(KEY_PREFIX.length, KEY_PREFIX.length + RANDOM_LENGTH);
  return key.slice(KEY_PREFIX.length + RANDOM_LENGTH) === checksum(random);
}

/** What the console and CLI show: `svc_` plus the first four random characters. */
export function displayPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.length + 4);
}

/** Keys and tokens are stored as SHA-256 hex: they are 200+ bits of randomness, so no slow hash is needed. */
export function sha256Hex(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
