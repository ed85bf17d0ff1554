import { ApiError } from '../errors';
import { signInLimiter } from '../http/rate-limit';
import { clientAddress } from '../http/public-origin';
import { verifyPassword } from '../auth/password';
import { recordSignIn } from '../auth/service';
import type { Principal } from '../auth/principal';
import type { AuditSource } from '../db/audit-types';
import { verifyPasskeyAssertion } from './passkey-service';
import type { SudoBody } from './schema';
import { userForSecondFactor, verifySecondFactorCode } from './service';
import { grantSudo, type SudoMethod } from './sudo-service';

/**
 * `POST /v1/me/sudo`: one proof (password, TOTP or recovery code, passkey) opens the session's window. Every
 * attempt takes a point of the sign-in limits, per address and per email, as a sign-in does; a wrong proof is
 * 401 and audited as a failed sign-in (`wrong_password` or `second_factor`).
 */
export async function reauthenticate(
  principal: Principal,
  body: SudoBody,
  headers: Headers,
  source: AuditSource,
): Promise<Date> {
  const user = await userForSecondFactor(principal.id);
  if (!user) throw new ApiError('unauthenticated');
  for (const key of [`ip:${clientAddress(headers)}`, `email:${user.email}`]) {
    const retryAfter = await signInLimiter.consume(key);
    if (retryAfter !== null)
      throw new ApiError('too_many_requests', 'Too many attempts to confirm it is you.', {
        headers: { 'retry-after': String(retryAfter) },
      });
  }
  let method: SudoMethod | null = null;
  if (body.password !== undefined) {
    method = (await verifyPassword(user.passwordHash, body.password)) ? 'password' : null;
  } else if (body.code !== undefined) {
    method = await verifySecondFactorCode(user, body.code, source);
  } else if (body.passkey !== undefined) {
    method = (await verifyPasskeyAssertion(body.passkey, user.id)) ? 'passkey' : null;
  }
  if (!method) {
    await recordSignIn(
      user,
      'failed',
      body.password !== undefined ? 'wrong_password' : 'second_factor',
      source.context,
    );
    throw new ApiError('unauthenticated', 'That did not check out; nothing changed.');
  }
  return grantSudo(principal, method, source);
}
