import { json, route } from '@/lib/pipeline/route';
import { listMembersOp } from '@/lib/members/operations';
import { listMembers } from '@/lib/members/service';
import { otherMethods } from '@/lib/pipeline/methods';

export const GET = route(listMembersOp, async ({ params, query }) => json(await listMembers(params.orgId, query)));

export const { POST, PUT, PATCH, DELETE } = otherMethods(listMembersOp);
