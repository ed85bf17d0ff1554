import { CONSOLE_SESSION, defineOperation } from '../pipeline/operation';
import {
  listNotificationsQuery,
  markReadBody,
  notificationPage,
  notificationPreferences,
  updatePreferencesBody,
} from './schema';

const common = {
  tags: ['Notifications'],
  scope: 'none' as const,
  credentials: CONSOLE_SESSION,
  self: {},
  credentialRefusal: 'Notifications are read in the console; sign in there.',
};

export const listNotificationsOp = defineOperation({
  ...common,
  method: 'GET',
  path: '/v1/me/notifications',
  summary: 'Your notifications, newest first',
  description: 'What was also emailed when SMTP is configured, with the count of unread ones.',
  query: listNotificationsQuery,
  success: { status: 200, description: 'A page of notifications and the unread count.', schema: notificationPage },
  errors: ['invalid_cursor'],
});

export const markNotificationsReadOp = defineOperation({
  ...common,
  method: 'POST',
  path: '/v1/me/notifications/read',
  summary: 'Mark notifications read',
  description: 'The ones named by `ids`, or all of them when `ids` is absent.',
  body: markReadBody,
  success: { status: 204, description: 'Marked read.' },
});

export const getNotificationPreferencesOp = defineOperation({
  ...common,
  method: 'GET',
  path: '/v1/me/notification-preferences',
  summary: 'Which kinds of notification you receive',
  description: 'Every kind is on until you turn it off.',
  success: { status: 200, description: 'One flag per kind.', schema: notificationPreferences },
});

export const updateNotificationPreferencesOp = defineOperation({
  ...common,
  method: 'PATCH',
  path: '/v1/me/notification-preferences',
  summary: 'Turn kinds of notification on or off',
  description: 'Only the kinds given change; a kind turned off is neither listed nor emailed.',
  body: updatePreferencesBody,
  success: { status: 200, description: 'One flag per kind, as changed.', schema: notificationPreferences },
});

export const notificationOperations = [
  listNotificationsOp,
  markNotificationsReadOp,
  getNotificationPreferencesOp,
  updateNotificationPreferencesOp,
];
