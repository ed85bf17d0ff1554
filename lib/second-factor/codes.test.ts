import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  looksLikeTotp,
  newRecoveryCodes,
  newTotpSecret,
  recoveryCodeHash,
  totpCodeAt,
  totpStepOf,
  TOTP_PERIOD_SECONDS,
} from './codes';

const STEP_MS = TOTP_PERIOD_SECONDS * 1000;

describe('TOTP codes', () => {
  const { secret } = newTotpSecret('tia@umbrella.test');

  it('accept the step before, the current and the step after, and name the step they belong to', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1e12, max: 4e12 }), fc.integer({ min: -1, max: 1 }), (now, offset) => {
        const code = totpCodeAt(secret, now + offset * STEP_MS);
        const step = totpStepOf(secret, code, now);
        // Another step in the window may share the code (1 in 10^6): then the earliest matching one is named.
        expect(step).not.toBeNull();
        expect(step! - Math.floor(now / STEP_MS)).toBeLessThanOrEqual(offset);
      }),
      { numRuns: 200 },
    );
  });

  it('refuse codes two or more steps away, and anything that is not six digits', () => {
    const now = 1_800_000_000_000;
    for (const offset of [-3, -2, 2, 3]) {
      const code = totpCodeAt(secret, now + offset * STEP_MS);
      const near = [-1, 0, 1].map((d) => totpCodeAt(secret, now + d * STEP_MS));
      if (!near.includes(code)) expect(totpStepOf(secret, code, now)).toBeNull();
    }
    for (const bad of ['', '12345', '1234567', 'abcdef', '12 345', '１２３４５６'])
      expect(totpStepOf(secret, bad, now)).toBeNull();
  });

  it('put the secret and the SHA-1, 6 digit, 30 s parameters in the otpauth URI', () => {
    const { secret: s, otpauthUri } = newTotpSecret('a@b.test');
    const uri = new URL(otpauthUri);
    expect(uri.searchParams.get('secret')).toBe(s);
    expect([uri.searchParams.get('algorithm'), uri.searchParams.get('digits'), uri.searchParams.get('period')]).toEqual(
      ['SHA1', '6', '30'],
    );
  });
});

describe('recovery codes', () => {
  it('are ten distinct codes of 80 random bits in four groups', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) {
      expect(code).toMatch(/^[a-km-np-z2-9]{4}(-[a-km-np-z2-9]{4}){3}$/);
      expect(looksLikeTotp(code)).toBe(false);
    }
  });

  it('hash the same whatever the case, dashes and spaces, and differently for any other code', () => {
    const [code, other] = newRecoveryCodes();
    const variants = [code.toUpperCase(), code.replaceAll('-', ''), ` ${code.replaceAll('-', ' ')} `];
    for (const v of variants) expect(recoveryCodeHash(v)).toBe(recoveryCodeHash(code));
    expect(recoveryCodeHash(other)).not.toBe(recoveryCodeHash(code));
    expect(recoveryCodeHash(code)).not.toContain(code.replaceAll('-', ''));
  });
});
