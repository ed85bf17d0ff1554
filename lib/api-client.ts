import type { ErrorBody, Issue } from './errors';

/** An error answer of the /v1 API, as the console sees it. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues: Issue[] = [],
    readonly response?: Response,
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

export type ApiRequest = Omit<RequestInit, 'body'> & { body?: unknown };

/**
 * What the console does when the API asks for more than the session: `reauthenticate` asks the person to confirm
 * it is them (the sudo dialog) and resolves true once the window is open again; `twoFactorRequired` takes them
 * to enrolment. Registered once by the console's providers, so every request gets them, not each page.
 */
export type AuthPrompts = {
  reauthenticate: () => Promise<boolean>;
  twoFactorRequired: (error: ApiRequestError) => void;
};

let prompts: AuthPrompts | null = null;
// Several requests refused at once share one dialog, then each retries.
let pendingReauthentication: Promise<boolean> | null = null;

export function registerAuthPrompts(next: AuthPrompts): () => void {
  prompts = next;
  return () => {
    if (prompts === next) prompts = null;
  };
}

/**
 * The console's one way to call the /v1 API: same origin, session cookie, JSON both ways.
 * Errors become `ApiRequestError` carrying the envelope's code, message and issues. A 403
 * `reauthentication_required` opens the sudo dialog and, once confirmed, sends the same request again, so a
 * form being submitted is not lost; cancelled, the original error is thrown.
 */
export async function apiFetch<T>(path: string, request: ApiRequest = {}): Promise<{ data: T; response: Response }> {
  try {
    return await sendOnce<T>(path, request);
  } catch (error) {
    if (!(error instanceof ApiRequestError) || !prompts) throw error;
    if (error.code === 'two_factor_required') prompts.twoFactorRequired(error);
    if (error.code !== 'reauthentication_required') throw error;
    const ask = prompts.reauthenticate;
    pendingReauthentication ??= ask().finally(() => (pendingReauthentication = null));
    if (!(await pendingReauthentication)) throw error;
    return sendOnce<T>(path, request);
  }
}

async function sendOnce<T>(
  path: string,
  { body, headers, ...init }: ApiRequest = {},
): Promise<{ data: T; response: Response }> {
  let response: Response;
  try {
    response = await fetch(path, {
      ...init,
      credentials: 'same-origin',
      headers: {
        accept: 'application/json',
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiRequestError(0, 'network_error', 'Could not reach the server. Check your connection and try again.');
  }
  if (response.status === 204) return { data: undefined as T, response };
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // fall through: a non-JSON answer is reported below
  }
  if (!response.ok) {
    const error = (parsed as ErrorBody | undefined)?.error;
    throw new ApiRequestError(
      response.status,
      error?.code ?? 'unknown_error',
      error?.message ?? `The server answered ${response.status}.`,
      error?.issues ?? [],
      response,
    );
  }
  return { data: parsed as T, response };
}

export async function apiGet<T>(path: string): Promise<T> {
  return (await apiFetch<T>(path)).data;
}
