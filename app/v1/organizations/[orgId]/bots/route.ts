import { json, route } from '@/lib/http/route';
import { listBotsOp } from '@/lib/orgs/operations';
import { listBots } from '@/lib/orgs/service';

export const GET = route(listBotsOp, async ({ params, query }) => json(await listBots(params.orgId, query)));
