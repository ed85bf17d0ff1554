import { otherMethods } from '@/lib/pipeline/methods';
import { json, route } from '@/lib/pipeline/route';
import { getNotificationPreferencesOp, updateNotificationPreferencesOp } from '@/lib/notifications/operations';
import { notificationPreferences, updateNotificationPreferences } from '@/lib/notifications/service';

export const GET = route(getNotificationPreferencesOp, async ({ principal }) =>
  json(await notificationPreferences(principal.id)),
);

export const PATCH = route(updateNotificationPreferencesOp, async ({ principal, body }) =>
  json(await updateNotificationPreferences(principal.id, body)),
);

export const { POST, PUT, DELETE } = otherMethods(getNotificationPreferencesOp, updateNotificationPreferencesOp);
