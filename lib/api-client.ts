import type { ErrorBody, Issue } from './http/errors';

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
 * The console's one way to call the /v1 API: same origin, session cookie, JSON both ways.
 * Errors become `ApiRequestError` carrying the envelope's code, message and issues.
 */
export async function apiFetch<T>(
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
