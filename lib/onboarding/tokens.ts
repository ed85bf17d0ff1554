import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../auth/api-key-format';

/** A one-time token for a link (setup, set-password, invitation): 32 random bytes; only its SHA-256 is stored. */
export function newLinkToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: sha256Hex(token) };
}

export const tokenHash = (token: string): string => sha256Hex(token);
