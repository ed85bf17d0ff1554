import { json, route } from '@/lib/http/route';
import { listMembersOp } from '@/lib/members/operations';
import { listMembers } from '@/lib/members/service';
import { otherMethods } from '@/lib/http/methods';

export const GET = route(listMembersOp, async ({ params, query }) => json(await listMembers(params.orgId, query)));

export const { POST, PUT, PATCH, DELETE } = otherMethods(listMembersOp);
