import { json, route } from '@/lib/http/route';
import { listMembersOp } from '@/lib/orgs/operations';
import { listMembers } from '@/lib/orgs/service';

export const GET = route(listMembersOp, async ({ params, query }) => json(await listMembers(params.orgId, query)));
