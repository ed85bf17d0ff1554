import { json, route } from '@/lib/pipeline/route';
import { publicOrigin } from '@/lib/http/public-origin';
import { resendInvitationOp } from '@/lib/onboarding/invitation-operations';
import { resendInvitation } from '@/lib/onboarding/invitation-service';
import { otherMethods } from '@/lib/pipeline/methods';

export const POST = route(resendInvitationOp, async ({ req, params, audit }) =>
  json(await resendInvitation(params.orgId, params.invitationId, audit, publicOrigin(req))),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods(resendInvitationOp);
