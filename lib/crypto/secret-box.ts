import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { generatedSecretFile, unsharedSecrets, unsharedSecretsMessage } from './shared-secrets.mjs';
import { settings } from '../settings/settings';

/**
 * Secrets that must stay readable (TOTP secrets, webhook signing secrets) are sealed with AES-256-GCM under
 * ENCRYPTION_KEY (32 bytes, base64 or hex), or on the embedded database the key scripts/start.mjs generates into
 * DATA_DIR on first start. On PostgreSQL nothing is generated: instances sharing the database must share the key.
 * A box names the key that sealed it, so opening it under another key says so instead of "bad tag".
 */
const VERSION = 'v1';

export class EncryptionKeyMismatch extends Error {
  constructor(sealedWith: string, current: string) {
    super(`This secret was sealed under the encryption key ${sealedWith}, but ENCRYPTION_KEY is ${current}.`);
    this.name = 'EncryptionKeyMismatch';
  }
}

let cached: { raw: string; key: Buffer } | undefined;

function decodeKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== 32) throw new Error('ENCRYPTION_KEY must be 32 bytes, written in base64 or hex.');
  return key;
}

/**
 * Refuses PostgreSQL without ENCRYPTION_KEY: a key generated into each instance's own DATA_DIR would differ between
 * instances (a TOTP secret sealed by one could not be opened by another), and a backup would record a key that no
 * server uses. scripts/start.mjs applies the same rule (./shared-secrets.mjs) before the server starts.
 */
export function requireSharedEncryptionKey(onPostgres = Boolean(settings().DATABASE_URL)): void {
  const missing = unsharedSecrets(onPostgres, { ENCRYPTION_KEY: settings().ENCRYPTION_KEY }, ['ENCRYPTION_KEY']);
  if (missing.length > 0) throw new Error(unsharedSecretsMessage(missing));
}

function keyText(): string {
  const { ENCRYPTION_KEY, DATA_DIR } = settings();
  if (ENCRYPTION_KEY) return ENCRYPTION_KEY;
  requireSharedEncryptionKey();
  // The data folder is the operator's, chosen at run time: the build has nothing to trace there.
  const file = generatedSecretFile('ENCRYPTION_KEY', path.resolve(/*turbopackIgnore: true*/ DATA_DIR));
  if (existsSync(file)) return readFileSync(file, 'utf8');
  throw new Error(
    'No ENCRYPTION_KEY: set it, or start the server with `npm start`, which generates one into DATA_DIR.',
  );
}

function currentKey(): Buffer {
  const raw = keyText();
  if (cached?.raw !== raw) cached = { raw, key: decodeKey(raw) };
  return cached.key;
}

/** Names a key without revealing it: the first 16 hex digits of SHA-256 over a label and the key. */
export function fingerprintOf(key: Buffer): string {
  return createHash('sha256').update('svc-encryption-key\0').update(key).digest('hex').slice(0, 16);
}

/** The current key's fingerprint: recorded in backups, so a restore under another key is refused. */
export function encryptionKeyFingerprint(): string {
  return fingerprintOf(currentKey());
}

/** Seals `plaintext`; `context` (say `totp:<userId>`) is bound to the box, so a box moved to another row fails. */
export function sealSecret(plaintext: string, context: string): string {
  const key = currentKey();
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context));
  const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const parts = [iv, sealed, cipher.getAuthTag()].map((b) => b.toString('base64url'));
  return [VERSION, fingerprintOf(key), ...parts].join('.');
}

/** Opens a box made by sealSecret under the same key and context; throws when either differs. */
export function openSecret(box: string, context: string): string {
  const [version, keyId, iv, sealed, tag] = box.split('.');
  if (version !== VERSION || !keyId || !iv || sealed === undefined || !tag) throw new Error('Not a sealed secret.');
  const key = currentKey();
  const current = fingerprintOf(key);
  if (keyId !== current) throw new EncryptionKeyMismatch(keyId, current);
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
}
