import { deleteBotOp } from '@/lib/bots/operations';
import { deleteBot } from '@/lib/bots/service';
import { noContent, route } from '@/lib/pipeline/route';
import { otherMethods } from '@/lib/pipeline/methods';

export const DELETE = route(deleteBotOp, async ({ params, audit }) => {
  await deleteBot(params.orgId, params.botId, audit);
  return noContent();
});

export const { GET, POST, PUT, PATCH } = otherMethods(deleteBotOp);
