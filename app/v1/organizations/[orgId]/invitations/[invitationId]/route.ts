import { noContent, route } from '@/lib/pipeline/route';
import { revokeInvitationOp } from '@/lib/onboarding/invitation-operations';
import { revokeInvitation } from '@/lib/onboarding/invitation-service';
import { otherMethods } from '@/lib/pipeline/methods';

export const DELETE = route(revokeInvitationOp, async ({ params, audit }) => {
  await revokeInvitation(params.orgId, params.invitationId, audit);
  return noContent();
});

export const { GET, POST, PUT, PATCH } = otherMethods(revokeInvitationOp);
