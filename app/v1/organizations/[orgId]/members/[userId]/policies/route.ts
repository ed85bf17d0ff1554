import { json, route } from '@/lib/pipeline/route';
import { setMemberPoliciesOp } from '@/lib/members/operations';
import { setMemberPolicies } from '@/lib/members/policies-service';
import { otherMethods } from '@/lib/pipeline/methods';

export const PUT = route(setMemberPoliciesOp, async ({ params, body, principal, audit }) =>
  json(await setMemberPolicies(params.orgId, params.userId, body.policies, principal, audit)),
);

export const { GET, POST, PATCH, DELETE } = otherMethods(setMemberPoliciesOp);
