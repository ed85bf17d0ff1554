'use client';

import { runMutation } from '@/components/console/feedback';
import { ListStates } from '@/components/console/list-states';
import { LoadMore } from '@/components/console/load-more';
import { RelativeTime } from '@/components/console/time';
import { Button } from '@/components/ui/button';
import { Badge, EmptyState, PageHeader } from '@/components/ui/states';
import { useMarkRead, useNotifications, useUnreadCount } from '@/lib/notifications/queries';
import { NotificationPreferencesForm } from './notification-preferences';

/** The signed-in user's notifications, newest first, across organizations; and which kinds they get. */
export function NotificationsView() {
  const list = useNotifications();
  const unread = useUnreadCount();
  const markRead = useMarkRead();
  const count = unread.data ?? 0;

  return (
    <>
      <PageHeader
        title="Notifications"
        description="What concerns you: leaked, expiring or revoked keys and disabled webhooks. Also emailed when the service sends mail."
        actions={
          count > 0 && (
            <Button
              variant="secondary"
              pending={markRead.isPending}
              onClick={() =>
                void runMutation(() => markRead.mutateAsync(undefined), {
                  success: 'Marked every notification read.',
                  failure: 'Could not mark them read',
                })
              }
            >
              Mark all read
            </Button>
          )
        }
      />
      <p className="mb-4 text-sm text-slate-700" aria-live="polite">
        {unread.isSuccess && (count === 0 ? 'Nothing unread.' : `${count} unread.`)}
      </p>
      <ListStates
        list={list}
        loading="Loading notifications"
        columns={2}
        errorTitle="Could not load notifications"
        empty={<EmptyState title="No notifications">You are told here when something happens to your keys.</EmptyState>}
      >
        <div className="rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
          <ul aria-label="Notifications" className="divide-y divide-slate-100">
            {list.items.map((n) => (
              <li key={n.id} className="flex flex-wrap items-start gap-3 px-4 py-3 sm:flex-nowrap">
                <div className="min-w-0 flex-1">
                  <h2 className="break-words text-sm font-semibold text-slate-900">
                    {!n.read && (
                      <span className="mr-2 align-middle">
                        <Badge tone="indigo">Unread</Badge>
                      </span>
                    )}
                    {n.subject}
                  </h2>
                  <p className="mt-1 whitespace-pre-line break-words text-sm text-slate-700">{n.body}</p>
                  <p className="mt-1 text-xs text-slate-500">
                    <RelativeTime iso={n.createdAt} />
                  </p>
                </div>
                {!n.read && (
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Mark read: ${n.subject}`}
                    onClick={() =>
                      void runMutation(() => markRead.mutateAsync([n.id]), {
                        success: 'Marked read.',
                        failure: 'Could not mark it read',
                      })
                    }
                  >
                    Mark read
                  </Button>
                )}
              </li>
            ))}
          </ul>
          <LoadMore list={list} />
        </div>
      </ListStates>
      <NotificationPreferencesForm />
    </>
  );
}
