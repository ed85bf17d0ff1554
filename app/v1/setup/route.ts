import { json } from '@/lib/pipeline/route';
import { openRoute } from '@/lib/pipeline/open-route';
import { otherMethods } from '@/lib/pipeline/methods';
import { setupOp } from '@/lib/onboarding/operations';
import { runSetup } from '@/lib/onboarding/setup-service';

export const POST = openRoute(setupOp, async ({ body, context }) =>
  json(await runSetup(body, context), { status: 201 }),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods(setupOp);
