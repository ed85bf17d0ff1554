// A /v1 client for the drills: a demo user's session cookie (signed in once, good on every instance sharing
// NEXTAUTH_SECRET) or a bearer token, against one instance's base URL.

export type Answer = { status: number; body: unknown };

export class Caller {
  private constructor(
    readonly base: string,
    private readonly auth: Record<string, string>,
  ) {}

  static bearer(base: string, token: string): Caller {
    return new Caller(base, { authorization: `Bearer ${token}` });
  }

  /** Signs in through next-auth's credentials provider, as the console's form does. */
  static async session(base: string, email: string, password: string): Promise<Caller> {
    const cookies = new Map<string, string>();
    const keep = (res: Response) => {
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const at = pair.indexOf('=');
        cookies.set(pair.slice(0, at), pair.slice(at + 1));
      }
    };
    const cookie = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const csrf = await fetch(`${base}/api/auth/csrf`);
    keep(csrf);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const signIn = await fetch(`${base}/api/auth/callback/credentials`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: cookie(), origin: base, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrfToken, email, password, json: 'true' }),
    });
    keep(signIn);
    if (![...cookies.keys()].some((k) => k.endsWith('session-token')))
      throw new Error(`sign-in of ${email} failed: ${signIn.status} ${await signIn.text()}`);
    return new Caller(base, { cookie: cookie() });
  }

  /** The same credential against another instance (writes carry that instance's Origin, as a browser's would). */
  on(base: string): Caller {
    return new Caller(base, this.auth);
  }

  async call(method: string, path: string, body?: unknown): Promise<Answer> {
    const headers: Record<string, string> = { ...this.auth };
    if (this.auth.cookie) headers.origin = this.base;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: kept as text for the report
    }
    return { status: res.status, body: parsed };
  }

  async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const { status, body: answer } = await this.call(method, path, body);
    if (status >= 300) throw new Error(`${method} ${path}: ${status} ${JSON.stringify(answer)}`);
    return answer as T;
  }
}
