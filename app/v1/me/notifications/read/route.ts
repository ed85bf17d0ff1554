import { otherMethods } from '@/lib/http/methods';
import { noContent, route } from '@/lib/http/route';
import { markNotificationsReadOp } from '@/lib/notifications/operations';
import { markNotificationsRead } from '@/lib/notifications/service';

export const POST = route(markNotificationsReadOp, async ({ principal, body }) => {
  await markNotificationsRead(principal.id, body.ids);
  return noContent();
});

export const { GET, PUT, PATCH, DELETE } = otherMethods(markNotificationsReadOp);
