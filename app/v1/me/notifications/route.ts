import { otherMethods } from '@/lib/http/methods';
import { json, route } from '@/lib/http/route';
import { listNotificationsOp } from '@/lib/notifications/operations';
import { listNotifications } from '@/lib/notifications/service';

export const GET = route(listNotificationsOp, async ({ principal, query }) =>
  json(await listNotifications(principal.id, query)),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(listNotificationsOp);
