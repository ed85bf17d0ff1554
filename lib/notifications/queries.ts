'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch, apiGet } from '../api-client';
import { usePagedList } from '../console/paged-list';
import type { Notification, NotificationPage, NotificationPreferences } from './schema';

/** Query keys of the signed-in user's notifications; never inline string keys. */
export const notificationKeys = {
  all: ['me', 'notifications'] as const,
  list: () => [...notificationKeys.all, 'list'] as const,
  unread: () => [...notificationKeys.all, 'unread'] as const,
  preferences: () => ['me', 'notification-preferences'] as const,
};

/** How often the bell asks for the unread count while the console is open. */
const UNREAD_POLL_MS = 30_000;

export function useNotifications() {
  return usePagedList<Notification>(notificationKeys.list(), '/v1/me/notifications');
}

/** The bell's count: one small page, whose `unread` counts all of them. */
export function useUnreadCount() {
  return useQuery({
    queryKey: notificationKeys.unread(),
    queryFn: async () => (await apiGet<NotificationPage>('/v1/me/notifications?limit=1')).unread,
    refetchInterval: UNREAD_POLL_MS,
  });
}

/** Marks the named notifications read, or all of them without ids. */
export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ids?: string[]) =>
      apiFetch<void>('/v1/me/notifications/read', { method: 'POST', body: ids ? { ids } : {} }),
    onSettled: () => client.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}

export function useNotificationPreferences() {
  return useQuery({
    queryKey: notificationKeys.preferences(),
    queryFn: () => apiGet<NotificationPreferences>('/v1/me/notification-preferences'),
  });
}

export function useUpdateNotificationPreferences() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (change: Partial<NotificationPreferences>) =>
      (await apiFetch<NotificationPreferences>('/v1/me/notification-preferences', { method: 'PATCH', body: change }))
        .data,
    onSuccess: (saved) => {
      client.setQueryData(notificationKeys.preferences(), saved);
      // A kind turned off is no longer listed.
      void client.invalidateQueries({ queryKey: notificationKeys.all });
    },
  });
}
