import { z } from 'zod';

export const passkeySummary = z
  .object({
    id: z.uuid(),
    name: z.string(),
    createdAt: z.iso.datetime(),
    lastUsedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Passkey' });

export const security = z
  .object({
    totp: z.object({ enabled: z.boolean() }),
    passkeys: z.array(passkeySummary),
    recoveryCodesRemaining: z.int().min(0),
    sudoExpiresAt: z.iso
      .datetime()
      .nullable()
      .meta({ description: "When this session's sudo window closes; null when closed." }),
  })
  .meta({ id: 'Security' });
export type Security = z.infer<typeof security>;

/** A WebAuthn response as @simplewebauthn/browser hands it over: JSON with base64url fields, checked by the library. */
const webauthnResponse = z.looseObject({ id: z.string().min(1).max(1024), type: z.literal('public-key') });

const code = z.string().trim().min(1, 'Enter a code.').max(64);

/** Exactly one proof: the password, a code (TOTP or recovery), or a passkey assertion. */
export const sudoBody = z
  .strictObject({
    password: z.string().min(1, 'Enter your password.').max(1024).optional(),
    code: code.optional(),
    passkey: webauthnResponse.optional(),
  })
  .refine((b) => [b.password, b.code, b.passkey].filter((v) => v !== undefined).length === 1, {
    message: 'Send exactly one of password, code or passkey.',
  });
export type SudoBody = z.infer<typeof sudoBody>;

export const sudoGranted = z.object({ sudoExpiresAt: z.iso.datetime() }).meta({ id: 'SudoGranted' });

export const totpEnrolment = z
  .object({
    secret: z.string().meta({ description: 'The secret in base32, for typing into an authenticator app.' }),
    otpauthUri: z.string().meta({ description: 'The `otpauth://totp/…` URI a QR code carries.' }),
  })
  .meta({ id: 'TotpEnrolment' });

export const confirmTotpBody = z.strictObject({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'Enter the 6-digit code your authenticator app shows.'),
});
export type ConfirmTotpBody = z.infer<typeof confirmTotpBody>;

export const recoveryCodesResponse = z
  .object({ recoveryCodes: z.array(z.string()).meta({ description: 'Shown once; stored hashed.' }) })
  .meta({ id: 'RecoveryCodes' });

export const passkeyName = z.string().trim().min(1, 'Name the passkey.').max(100, 'At most 100 characters.');
export const addPasskeyBody = z.strictObject({ name: passkeyName, response: webauthnResponse });
export type AddPasskeyBody = z.infer<typeof addPasskeyBody>;

export const passkeyParams = z.object({ passkeyId: z.uuid() });

/** WebAuthn options as JSON (base64url), for @simplewebauthn/browser. */
export const webauthnOptions = z.looseObject({ challenge: z.string() }).meta({ id: 'WebAuthnOptions' });

export const passkeyAdded = z
  .object({
    passkey: passkeySummary,
    recoveryCodes: z
      .array(z.string())
      .meta({ description: 'Ten codes when this is the first second factor (shown once), else empty.' }),
  })
  .meta({ id: 'PasskeyAdded' });
