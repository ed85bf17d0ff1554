import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { checksum, displayPrefix, generateApiKey, isWellFormedApiKey, sha256Hex, toBase62 } from './api-key-format';

describe('API key format', () => {
  it('generates svc_ plus 40 base62 characters whose checksum holds', () => {
    for (let i = 0; i < 200; i++) {
      const key = generateApiKey();
      expect(key).toMatch(/^svc_[0-9A-Za-z]{40}$/);
      expect(isWellFormedApiKey(key)).toBe(true);
    }
  });

  it('computes the checksum as CRC-32 of the random part in base62, most significant first, padded to 6', () => {
    const random = 'a'.repeat(34);
    const crc = crc32(Buffer.from(random, 'ascii'));
    const expected = toBase62(crc, 6);
    expect(checksum(random)).toBe(expected);
    // A hand-checked value: CRC-32("123456789") = 0xCBF43926 = 3421780262 = "3jZRME" in base62 (0-9A-Za-z).
    expect(toBase62(0xcbf43926, 6)).toBe('3jZRME');
    expect(toBase62(0, 6)).toBe('000000');
    expect(toBase62(61, 6)).toBe('00000z');
  });

  it('refuses keys of the wrong shape or with a bad checksum', () => {
    const key = generateApiKey();
    const flipped = key.slice(0, 10) + (key[10] === 'A' ? 'B' : 'A') + key.slice(11);
    expect(isWellFormedApiKey(flipped)).toBe(false);
    expect(isWellFormedApiKey(key.slice(0, -1))).toBe(false);
    expect(isWellFormedApiKey(key + 'x')).toBe(false);
    expect(isWellFormedApiKey('sk_' + key.slice(4))).toBe(false);
    expect(isWellFormedApiKey(key.slice(0, 20) + '-' + key.slice(21))).toBe(false);
    expect(isWellFormedApiKey('')).toBe(false);
  });

  it('shows only svc_ plus four characters and hashes with SHA-256', () => {
    const key = generateApiKey();
    expect(displayPrefix(key)).toBe(key.slice(0, 8));
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
