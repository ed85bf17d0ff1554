import { otherMethods } from '@/lib/pipeline/methods';
import { json, route } from '@/lib/pipeline/route';
import { listNotificationsOp } from '@/lib/notifications/operations';
import { listNotifications } from '@/lib/notifications/service';

export const GET = route(listNotificationsOp, async ({ principal, query }) =>
  json(await listNotifications(principal.id, query)),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(listNotificationsOp);
