import { otherMethods } from '@/lib/pipeline/methods';
import { noContent, route } from '@/lib/pipeline/route';
import { markNotificationsReadOp } from '@/lib/notifications/operations';
import { markNotificationsRead } from '@/lib/notifications/service';

export const POST = route(markNotificationsReadOp, async ({ principal, body }) => {
  await markNotificationsRead(principal.id, body.ids);
  return noContent();
});

export const { GET, PUT, PATCH, DELETE } = otherMethods(markNotificationsReadOp);
