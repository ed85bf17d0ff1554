import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { settings } from '../settings/settings';

/** `SECRET_SCANNING_PUBLIC_KEYS`: `[{key_identifier, key}]`, each key a PEM of an ECDSA P-256 public key. */
const trustedKeysEnv = z.array(z.object({ key_identifier: z.string().min(1), key: z.string().min(1) }));

export type TrustedKeys = Map<string, KeyObject>;

export function parseTrustedKeys(value: string | undefined): TrustedKeys {
  if (!value) return new Map();
  const keys = trustedKeysEnv.parse(JSON.parse(value));
  return new Map(keys.map((k) => [k.key_identifier, createPublicKey(k.key)]));
}

let fromEnv: TrustedKeys | null = null;

/** The keys from the environment, parsed once; a malformed variable fails the first report loudly. */
export function trustedKeys(): TrustedKeys {
  return (fromEnv ??= parseTrustedKeys(settings().SECRET_SCANNING_PUBLIC_KEYS));
}

/** The signature headers, under the generic names or GitHub's. */
export function signatureHeaders(headers: Headers): { keyId: string | null; signature: string | null } {
  return {
    keyId: headers.get('secret-scanning-key-identifier') ?? headers.get('github-public-key-identifier'),
    signature: headers.get('secret-scanning-signature') ?? headers.get('github-public-key-signature'),
  };
}

/** ECDSA P-256 with SHA-256 over the raw body bytes; the signature is base64 DER. Never throws. */
export function verifyReportSignature(
  body: Buffer,
  keyId: string | null,
  signature: string | null,
  keys: TrustedKeys,
): boolean {
  if (!keyId || !signature) return false;
  const key = keys.get(keyId);
  if (!key) return false;
  try {
    return verify('sha256', body, { key, dsaEncoding: 'der' }, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}
