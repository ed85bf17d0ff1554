import { endAllSessionsOp } from '@/lib/sessions/operations';
import { endAllSessions } from '@/lib/auth/service';
import { otherMethods } from '@/lib/pipeline/methods';
import { noContent, route } from '@/lib/pipeline/route';

export const POST = route(endAllSessionsOp, async ({ principal }) => {
  await endAllSessions(principal.id);
  return noContent();
});

export const { GET, PUT, PATCH, DELETE } = otherMethods(endAllSessionsOp);
