import { json, route } from '@/lib/http/route';
import { listBotsOp } from '@/lib/bots/operations';
import { listBots } from '@/lib/bots/service';
import { otherMethods } from '@/lib/http/methods';

export const GET = route(listBotsOp, async ({ params, query }) => json(await listBots(params.orgId, query)));

export const { POST, PUT, PATCH, DELETE } = otherMethods(listBotsOp);
