'use client';

import Link from 'next/link';
import { toast } from 'sonner';
import { ApiRequestError } from '@/lib/api-client';

/** A link on a success toast: where the new thing is, or where to go next. */
export type ToastLink = { label: string; href: string };

let toastCount = 0;

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
    /** Where the new thing is (or what to do next), as a link on the success toast. */
    next?: (data: T) => ToastLink | null | undefined;
  },
): Promise<Outcome<T>> {
  try {
    const data = await work();
    const link = messages.next?.(data);
    const id = `outcome-${++toastCount}`;
    toast.success(typeof messages.success === 'function' ? messages.success(data) : messages.success, {
      id,
      // Time to reach its link by keyboard; sonner's default is 4 s.
      duration: link ? 10_000 : undefined,
      // A real link (sonner's action is a button): it can open in a new tab, and its name says where it goes.
      action: link ? (
        <Link href={link.href} data-button="" data-action="" onClick={() => toast.dismiss(id)}>
          {link.label}
        </Link>
      ) : undefined,
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
