import { endAllSessionsOp } from '@/lib/auth/operations';
import { endAllSessions } from '@/lib/auth/service';
import { otherMethods } from '@/lib/http/methods';
import { noContent, route } from '@/lib/http/route';

export const POST = route(endAllSessionsOp, async ({ principal }) => {
  await endAllSessions(principal.id);
  return noContent();
});

export const { GET, PUT, PATCH, DELETE } = otherMethods(endAllSessionsOp);
