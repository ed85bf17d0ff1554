'use client';

import { toast } from 'sonner';
import { ApiRequestError } from '@/lib/api-client';

export type Outcome<T> = { ok: true; data: T } | { ok: false; error: unknown };

/**
 * The one way the console runs a change: it announces the result in a toast (sonner's region is a polite
 * live region, so screen readers read it) and never throws. `placeIssues` puts field problems next to their
 * fields and returns whether any problem was left over; only then, or when it is absent, the failure is toasted.
 */
export async function runMutation<T>(
  work: () => Promise<T>,
  messages: {
    success: string | ((data: T) => string);
    failure: string;
    placeIssues?: (error: unknown) => boolean;
    /** What to do next, as a button on the success toast (a link to where that is done). */
    next?: (data: T) => { label: string; onClick: () => void };
  },
): Promise<Outcome<T>> {
  try {
    const data = await work();
    toast.success(typeof messages.success === 'function' ? messages.success(data) : messages.success, {
      action: messages.next?.(data),
    });
    return { ok: true, data };
  } catch (error) {
    const leftOver = messages.placeIssues ? messages.placeIssues(error) : true;
    if (leftOver) announceFailure(messages.failure, error);
    return { ok: false, error };
  }
}

/** A failure that is not about one field: the toast names what failed and the server's reasons (its issues). */
export function announceFailure(what: string, error: unknown): void {
  const reason =
    error instanceof ApiRequestError
      ? error.issues.length > 0
        ? error.issues.map((issue) => issue.message).join(' ')
        : error.message
      : error instanceof Error
        ? error.message
        : 'Something went wrong.';
  toast.error(what, { description: reason });
}
