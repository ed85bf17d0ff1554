import { ApiRequestError } from '@/lib/api-client';

/**
 * Adding a webhook and rotating a signing secret need a recent sign-in (sudo). The console's sudo dialog asks for it and
 * sends the request again; this is what the form says when that dialog was cancelled. Null for any other error.
 */
export function reauthenticationMessage(error: unknown, what: string): string | null {
  if (!(error instanceof ApiRequestError) || error.code !== 'reauthentication_required') return null;
  return `To ${what} you must confirm it is you (your password, a code or a passkey). Nothing was changed.`;
}
