import { deleteBotOp } from '@/lib/bots/operations';
import { deleteBot } from '@/lib/bots/service';
import { noContent, route } from '@/lib/http/route';

export const DELETE = route(deleteBotOp, async ({ params, audit }) => {
  await deleteBot(params.orgId, params.botId, audit);
  return noContent();
});
