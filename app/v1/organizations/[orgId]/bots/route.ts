import { json, route } from '@/lib/pipeline/route';
import { listBotsOp } from '@/lib/bots/operations';
import { listBots } from '@/lib/bots/service';
import { otherMethods } from '@/lib/pipeline/methods';

export const GET = route(listBotsOp, async ({ params, query }) => json(await listBots(params.orgId, query)));

export const { POST, PUT, PATCH, DELETE } = otherMethods(listBotsOp);
