import { z } from 'zod';
import { pageOf, pageQuery } from '../http/pagination';
import { NOTIFICATION_KINDS } from './messages';

export const notification = z
  .object({
    id: z.uuid(),
    kind: z.string().meta({ description: `One of ${NOTIFICATION_KINDS.join(', ')}; clients show others as they are.` }),
    organizationId: z.uuid().nullable(),
    subject: z.string(),
    body: z.string(),
    read: z.boolean(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Notification' });

export const notificationPage = pageOf(notification)
  .extend({ unread: z.int().min(0).meta({ description: 'How many of all your notifications are unread.' }) })
  .meta({ id: 'NotificationPage' });

export const listNotificationsQuery = pageQuery;

export const markReadBody = z
  .strictObject({
    ids: z
      .array(z.uuid({ error: 'Each id must be a notification id.' }))
      .max(100, { error: 'At most 100 ids at once.' })
      .optional()
      .meta({ description: 'The notifications to mark read; absent: all of them.' }),
  })
  .meta({ id: 'NotificationsRead' });

const kindFlags = Object.fromEntries(
  NOTIFICATION_KINDS.map((kind) => [kind, z.boolean({ error: `${kind} must be true or false.` })]),
) as Record<(typeof NOTIFICATION_KINDS)[number], z.ZodBoolean>;

export const notificationPreferences = z.object(kindFlags).meta({ id: 'NotificationPreferences' });
export const updatePreferencesBody = z
  .strictObject(Object.fromEntries(Object.entries(kindFlags).map(([k, v]) => [k, v.optional()])))
  .meta({ id: 'NotificationPreferencesUpdate' });

export type Notification = z.infer<typeof notification>;
export type NotificationPage = z.infer<typeof notificationPage>;
export type NotificationPreferences = z.infer<typeof notificationPreferences>;
