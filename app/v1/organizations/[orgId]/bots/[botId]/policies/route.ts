import { json, route } from '@/lib/pipeline/route';
import { setBotPoliciesOp } from '@/lib/bots/operations';
import { setBotPolicies } from '@/lib/bots/create-service';
import { otherMethods } from '@/lib/pipeline/methods';

export const PUT = route(setBotPoliciesOp, async ({ params, body, principal, audit }) =>
  json(await setBotPolicies(params.orgId, params.botId, body.policies, principal, audit)),
);

export const { GET, POST, PATCH, DELETE } = otherMethods(setBotPoliciesOp);
