import { gettingStartedOp } from '@/lib/onboarding/operations';
import { gettingStarted } from '@/lib/onboarding/getting-started-service';
import { otherMethods } from '@/lib/pipeline/methods';
import { json, route } from '@/lib/pipeline/route';

export const GET = route(gettingStartedOp, async ({ params }) => json(await gettingStarted(params.orgId)));

export const { POST, PUT, PATCH, DELETE } = otherMethods(gettingStartedOp);
