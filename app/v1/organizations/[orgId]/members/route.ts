import { json, route } from '@/lib/http/route';
import { listMembersOp } from '@/lib/members/operations';
import { listMembers } from '@/lib/members/service';

export const GET = route(listMembersOp, async ({ params, query }) => json(await listMembers(params.orgId, query)));
