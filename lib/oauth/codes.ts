import { randomBytes, randomInt } from 'node:crypto';

/** RFC 8628 §6.1: consonants only, so no vowels spell words and no 0/O or 1/I confusion. */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const USER_CODE_LENGTH = 8;

/** The CLI this service knows; a device login from any other client_id is refused. */
export const OAUTH_CLIENTS: Record<string, { name: string }> = {
  'svc-cli': { name: 'svc CLI' },
};

export const DEVICE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';
export const DEVICE_CODE_TTL_SECONDS = 600;
export const POLL_INTERVAL_SECONDS = 5;
export const SLOW_DOWN_STEP_SECONDS = 5;
export const ACCESS_TOKEN_TTL_SECONDS = 60 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;

/** Recognisable prefixes (as GitHub's gho_), never `svc_`, which marks an API key. */
export const ACCESS_TOKEN_PREFIX = 'svcoa_';
export const REFRESH_TOKEN_PREFIX = 'svcor_';

export function generateUserCode(): string {
  let code = '';
  for (let i = 0; i < USER_CODE_LENGTH; i++) code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return formatUserCode(code);
}

/** What a person typed, as stored: upper case, separators dropped. Null when it cannot be a user code. */
export function normalizeUserCode(input: string): string | null {
  const code = input.toUpperCase().replace(/[\s-]/g, '');
  if (code.length !== USER_CODE_LENGTH) return null;
  for (const ch of code) if (!USER_CODE_ALPHABET.includes(ch)) return null;
  return code;
}

export function formatUserCode(normalized: string): string {
  return `${normalized.slice(0, 4)}-${normalized.slice(4)}`;
}

export function generateDeviceCode(): string {
  return randomBytes(32).toString('base64url');
}

export function generateToken(kind: 'access' | 'refresh'): string {
  return (kind === 'access' ? ACCESS_TOKEN_PREFIX : REFRESH_TOKEN_PREFIX) + randomBytes(32).toString('base64url');
}
