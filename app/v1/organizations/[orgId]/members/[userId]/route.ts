import { noContent, route } from '@/lib/pipeline/route';
import { removeMemberOp } from '@/lib/members/operations';
import { endMembership } from '@/lib/members/service';
import { otherMethods } from '@/lib/pipeline/methods';

export const DELETE = route(removeMemberOp, async ({ params, audit }) => {
  await endMembership(params.orgId, params.userId, 'member_removed', audit);
  return noContent();
});

export const { GET, POST, PUT, PATCH } = otherMethods(removeMemberOp);
