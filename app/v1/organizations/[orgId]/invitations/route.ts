import { json, route } from '@/lib/pipeline/route';
import { publicOrigin } from '@/lib/http/public-origin';
import { createInvitationOp, listInvitationsOp } from '@/lib/onboarding/invitation-operations';
import { createInvitation, listInvitations } from '@/lib/onboarding/invitation-service';
import { otherMethods } from '@/lib/pipeline/methods';

export const GET = route(listInvitationsOp, async ({ params, query }) =>
  json(await listInvitations(params.orgId, query)),
);

export const POST = route(createInvitationOp, async ({ req, params, body, principal, audit }) =>
  json(await createInvitation(params.orgId, body, principal, audit, publicOrigin(req)), { status: 201 }),
);

export const { PUT, PATCH, DELETE } = otherMethods(listInvitationsOp, createInvitationOp);
