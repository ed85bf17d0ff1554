import { ApiError } from '@/lib/errors';
import { noContent, route } from '@/lib/pipeline/route';
import { leaveOrganizationOp } from '@/lib/members/operations';
import { endMembership } from '@/lib/members/service';
import { otherMethods } from '@/lib/pipeline/methods';

export const POST = route(leaveOrganizationOp, async ({ params, principal, audit }) => {
  if (principal.type !== 'user')
    throw new ApiError('access_denied', 'Bots are not members and cannot leave an organization.');
  await endMembership(params.orgId, principal.id, 'member_left', audit);
  return noContent();
});

export const { GET, PUT, PATCH, DELETE } = otherMethods(leaveOrganizationOp);
