'use client';

import Link from 'next/link';
import { useUnreadCount } from '@/lib/notifications/queries';

/**
 * The shell's bell: a link to the notifications page, its unread count in a badge and in its name. It is on every
 * page and seldom followed, so the page is not prefetched when the bell shows (two requests and their parsing after
 * every load); it loads when pressed.
 */
export function NotificationBell({ orgId }: { orgId: string }) {
  const unread = useUnreadCount();
  const count = unread.data ?? 0;
  const shown = count > 99 ? '99+' : String(count);
  return (
    <Link
      href={`/orgs/${orgId}/notifications`}
      prefetch={false}
      aria-label={count > 0 ? `Notifications, ${count} unread` : 'Notifications'}
      className="relative inline-flex size-9 shrink-0 items-center justify-center rounded-md text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-100"
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2">
        <path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9" strokeLinecap="round" strokeLinejoin="round" />
        <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      {count > 0 && (
        <span
          aria-hidden="true"
          className="absolute -right-1.5 -top-1.5 min-w-5 rounded-full bg-red-600 px-1 text-center text-xs font-semibold leading-5 text-white"
        >
          {shown}
        </span>
      )}
    </Link>
  );
}
