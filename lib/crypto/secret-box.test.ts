import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { EncryptionKeyMismatch, encryptionKeyFingerprint, openSecret, sealSecret } from './secret-box';

const saved = { key: process.env.ENCRYPTION_KEY, dir: process.env.DATA_DIR };
afterEach(() => {
  process.env.ENCRYPTION_KEY = saved.key;
  process.env.DATA_DIR = saved.dir;
  if (saved.key === undefined) delete process.env.ENCRYPTION_KEY;
  if (saved.dir === undefined) delete process.env.DATA_DIR;
});

const useKey = (key = randomBytes(32)) => (process.env.ENCRYPTION_KEY = key.toString('base64'));

describe('secret box', () => {
  it('opens what it sealed, for any text and context', () => {
    useKey();
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string(), (secret, context) => {
        expect(openSecret(sealSecret(secret, context), context)).toBe(secret);
      }),
    );
  });

  it('keeps the text out of the box', () => {
    useKey();
    const secret = 'whsec_' + randomBytes(24).toString('base64');
    const box = sealSecret(secret, 'webhook:w1');
    for (const encoding of ['utf8', 'base64', 'base64url', 'hex'] as const)
      expect(box).not.toContain(Buffer.from(secret).toString(encoding).slice(0, 16));
  });

  it('seals the same text differently each time', () => {
    useKey();
    expect(sealSecret('JBSWY3DPEHPK3PXP', 'totp:u1')).not.toBe(sealSecret('JBSWY3DPEHPK3PXP', 'totp:u1'));
  });

  it('refuses a box moved to another context, or changed by one character', () => {
    useKey();
    const box = sealSecret('JBSWY3DPEHPK3PXP', 'totp:u1');
    expect(() => openSecret(box, 'totp:u2')).toThrow();
    const parts = box.split('.');
    parts[3] = (parts[3][0] === 'A' ? 'B' : 'A') + parts[3].slice(1);
    expect(() => openSecret(parts.join('.'), 'totp:u1')).toThrow();
  });

  it('names both keys when opened under another key', () => {
    useKey();
    const box = sealSecret('s', 'c');
    const before = encryptionKeyFingerprint();
    useKey();
    expect(() => openSecret(box, 'c')).toThrow(EncryptionKeyMismatch);
    expect(() => openSecret(box, 'c')).toThrow(before);
  });

  it('accepts a hex key and reads the generated key from DATA_DIR when none is set', () => {
    const key = randomBytes(32);
    process.env.ENCRYPTION_KEY = key.toString('hex');
    const fromHex = encryptionKeyFingerprint();
    delete process.env.ENCRYPTION_KEY;
    const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-key-'));
    try {
      writeFileSync(path.join(dir, 'encryption-key'), key.toString('base64url'));
      process.env.DATA_DIR = dir;
      expect(encryptionKeyFingerprint()).toBe(fromHex);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a key that is not 32 bytes', () => {
    process.env.ENCRYPTION_KEY = randomBytes(16).toString('base64');
    expect(() => sealSecret('s', 'c')).toThrow(/32 bytes/);
  });
});
