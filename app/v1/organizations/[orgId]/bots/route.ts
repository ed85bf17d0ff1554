import { json, route } from '@/lib/http/route';
import { listBotsOp } from '@/lib/orgs/operations';
import { listBots } from '@/lib/orgs/service';
import { otherMethods } from '@/lib/http/methods';

export const GET = route(listBotsOp, async ({ params, query }) => json(await listBots(params.orgId, query)));

export const { POST, PUT, PATCH, DELETE } = otherMethods(listBotsOp);
