import { json } from '@/lib/pipeline/route';
import { openRoute } from '@/lib/pipeline/open-route';
import { previewInvitationOp } from '@/lib/onboarding/invitation-operations';
import { previewInvitation } from '@/lib/onboarding/accept-service';
import { otherMethods } from '@/lib/pipeline/methods';

export const GET = openRoute(previewInvitationOp, async ({ params }) => json(await previewInvitation(params.token)));

export const { POST, PUT, PATCH, DELETE } = otherMethods(previewInvitationOp);
