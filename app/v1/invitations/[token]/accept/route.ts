import { json } from '@/lib/pipeline/route';
import { openRoute } from '@/lib/pipeline/open-route';
import { acceptInvitationOp } from '@/lib/onboarding/invitation-operations';
import { acceptInvitation } from '@/lib/onboarding/accept-service';
import { otherMethods } from '@/lib/pipeline/methods';

export const POST = openRoute(acceptInvitationOp, async ({ params, body, caller, context }) =>
  json(await acceptInvitation(params.token, body, caller, context)),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods(acceptInvitationOp);
