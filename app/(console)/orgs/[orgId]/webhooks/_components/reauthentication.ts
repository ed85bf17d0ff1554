import { ApiRequestError } from '@/lib/api-client';

/**
 * Adding a webhook and rotating its secret need a recent sign-in (sudo). Until the console asks for it in a
 * dialog of its own, the refusal is said plainly, naming what was refused; null for any other error.
 */
export function reauthenticationMessage(error: unknown, what: string): string | null {
  if (!(error instanceof ApiRequestError) || error.code !== 'reauthentication_required') return null;
  return `To ${what} you must confirm it is you: sign out and sign in again (or confirm with your second factor), then try again. Nothing was changed.`;
}
