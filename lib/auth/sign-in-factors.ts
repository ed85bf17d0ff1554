import type { AuditSource } from '../db/audit-types';
import { hook } from '../hooks';

/**
 * What sign-in asks of the second factor without importing it (docs/architecture.md, "Floors"): server/hooks.ts
 * registers the second-factor feature's answers at start-up. A sign-in that finds none fails, never skips a factor.
 */
export type SignInFactors = {
  /** Whether the user must give a second factor (a confirmed TOTP or a passkey) to get a session. */
  required: (userId: string) => Promise<boolean>;
  /** A TOTP or recovery code, used once; a wrong one is recorded by the caller. */
  verifyCode: (user: { id: string; name: string }, code: string, source: AuditSource) => Promise<boolean>;
  /** A passkey assertion (JSON): the user it signs in, or null. */
  verifyPasskey: (response: unknown) => Promise<string | null>;
  /** Opens a new session's sudo window: a person who just proved who they are is not asked again. */
  openSudo: (userId: string, sessionId: string) => Promise<unknown>;
};

const factors = hook<SignInFactors>('sign-in factors');

export const registerSignInFactors = factors.register;

export const signInFactors = factors.get;
