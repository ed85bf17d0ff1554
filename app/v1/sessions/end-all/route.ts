import { endAllSessionsOp } from '@/lib/auth/operations';
import { endAllSessions } from '@/lib/auth/service';
import { noContent, route } from '@/lib/http/route';

export const POST = route(endAllSessionsOp, async ({ principal }) => {
  await endAllSessions(principal.id);
  return noContent();
});
