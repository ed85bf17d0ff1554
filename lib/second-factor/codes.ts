import { createHash, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as authenticator apps default to it: SHA-1, 6 digits, 30 s steps; ±1 step of clock drift. */
export const TOTP_PERIOD_SECONDS = 30;
const TOTP_DIGITS = 6;
const TOTP_WINDOW = 1;
const ISSUER = 'svc-console';

export const RECOVERY_CODE_COUNT = 10;
// 32 letters and digits without the look-alikes l, o, 0 and 1: 16 of them are 80 random bits.
const RECOVERY_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
const RECOVERY_LENGTH = 16;

function totpOf(base32: string, label = ''): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(base32),
  });
}

/** A new TOTP secret (160 bits, as RFC 4226 recommends) and the otpauth:// URI an authenticator app scans. */
export function newTotpSecret(accountName: string): { secret: string; otpauthUri: string } {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, otpauthUri: totpOf(secret, accountName).toString() };
}

/** The 30 s step a code belongs to, when it is valid now within ±1 step; null otherwise. */
export function totpStepOf(base32: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(base32).validate({ token: code, timestamp: now, window: TOTP_WINDOW });
  return delta === null ? null : Math.floor(now / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

/** The code of a secret at an instant: for tests and for nothing else in the server. */
export function totpCodeAt(base32: string, timestamp: number): string {
  return totpOf(base32).generate({ timestamp });
}

/** Whether a submitted code has the shape of a TOTP code (else it is tried as a recovery code). */
export function looksLikeTotp(code: string): boolean {
  return /^\d{6}$/.test(code.replace(/\s/g, ''));
}

/** Ten new recovery codes, shown once as `xxxx-xxxx-xxxx-xxxx`. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: RECOVERY_LENGTH }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
    return chars.join('').replace(/(.{4})(?!$)/g, '$1-');
  });
}

/** What is stored of a recovery code: SHA-256 of its normalised text (case, dashes and spaces do not matter). */
export function recoveryCodeHash(code: string): string {
  const normalised = code.toLowerCase().replace(/[\s-]/g, '');
  return createHash('sha256').update(normalised).digest('hex');
}
