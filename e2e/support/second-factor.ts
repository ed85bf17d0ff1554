import { request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import { decode } from 'next-auth/jwt';
import { totpCodeAt, TOTP_PERIOD_SECONDS } from '../../lib/second-factor/codes';
import { mintedSessionCookie } from '../fixtures';
import { baseURL, E2E } from './env';

/**
 * A valid console session that has not authenticated recently: a cookie minted with the server's secret, as a
 * session signed in hours ago looks. Its sudo window was never opened.
 */
export async function staleSession(userId: string, url = baseURL, sessionVersion = 1): Promise<APIRequestContext> {
  return playwrightRequest.newContext({
    baseURL: url,
    extraHTTPHeaders: { Origin: url, cookie: await mintedSessionCookie(userId, sessionVersion) },
  });
}

/**
 * A stale session of the user signed in on `signedIn`, at that user's current session version: a shared demo user's
 * version moves when another file signs them out everywhere (on PostgreSQL both test servers share its row).
 */
export async function staleSessionLike(signedIn: APIRequestContext, url = baseURL): Promise<APIRequestContext> {
  const { cookies } = await signedIn.storageState();
  const cookie = cookies.find((c) => c.name.endsWith('next-auth.session-token'));
  const claims = await decode({ token: cookie?.value, secret: E2E.secret });
  if (!claims?.sub || typeof claims.sv !== 'number') throw new Error('The context holds no session cookie.');
  return staleSession(claims.sub, url, claims.sv);
}

export type SignInOutcome = { ok: boolean; error: string | null };

/** A sign-in through next-auth's credentials provider with an optional second-step `code`; the context keeps the cookie. */
export async function signInWith(
  ctx: APIRequestContext,
  email: string,
  extra: { code?: string; password?: string } = {},
  url = baseURL,
): Promise<SignInOutcome> {
  const { csrfToken } = (await (await ctx.get(`${url}/api/auth/csrf`)).json()) as { csrfToken: string };
  const form: Record<string, string> = { csrfToken, email, password: extra.password ?? E2E.password, json: 'true' };
  if (extra.code !== undefined) form.code = extra.code;
  const res = await ctx.post(`${url}/api/auth/callback/credentials`, {
    form,
    headers: { Origin: url },
    maxRedirects: 0,
  });
  const body = (await res.json().catch(() => ({}))) as { url?: string };
  const error = body.url ? new URL(body.url).searchParams.get('error') : null;
  return { ok: res.status() === 200 && error === null, error };
}

/** A fresh context with no cookie, for one sign-in attempt. */
export function anonymousContext(url = baseURL): Promise<APIRequestContext> {
  return playwrightRequest.newContext({ baseURL: url, extraHTTPHeaders: { Origin: url } });
}

/** The code of the TOTP step `offset` steps from now (0: the current one; 1: the next, still accepted within ±1). */
export function totpCode(secret: string, offset = 0): string {
  return totpCodeAt(secret, Date.now() + offset * TOTP_PERIOD_SECONDS * 1000);
}

/** Enrols TOTP for the signed-in context and returns the secret and the recovery codes. */
export async function enrolTotp(ctx: APIRequestContext): Promise<{ secret: string; recoveryCodes: string[] }> {
  const started = await ctx.post('/v1/me/totp');
  if (started.status() !== 201) throw new Error(`enrol: ${started.status()} ${await started.text()}`);
  const { secret } = (await started.json()) as { secret: string };
  const confirmed = await ctx.post('/v1/me/totp/confirm', { data: { code: totpCode(secret) } });
  if (confirmed.status() !== 200) throw new Error(`confirm: ${confirmed.status()} ${await confirmed.text()}`);
  return { secret, ...((await confirmed.json()) as { recoveryCodes: string[] }) };
}
