/**
 * Signs in as the sign-in form does, over plain fetch: next-auth's CSRF token and cookie first, then the email and
 * password to its credentials callback. The answer is returned as it came (its session cookie, or a refusal).
 * `signal` makes a fresh abort signal for each of the two requests; `headers` are added to the second.
 */
export async function postCredentials(
  base: string,
  credentials: { email: string; password: string },
  options: { headers?: Record<string, string>; signal?: () => AbortSignal } = {},
): Promise<Response> {
  const csrf = await fetch(`${base}/api/auth/csrf`, { signal: options.signal?.() });
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  return fetch(`${base}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: csrf.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; '),
      ...options.headers,
    },
    body: new URLSearchParams({ csrfToken, email: credentials.email, password: credentials.password, json: 'true' }),
    signal: options.signal?.(),
  });
}
