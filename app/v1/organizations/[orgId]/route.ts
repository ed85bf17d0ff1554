import { otherMethods } from '@/lib/pipeline/methods';
import { json, route } from '@/lib/pipeline/route';
import { updateOrganizationOp } from '@/lib/orgs/operations';
import { updateOrganization } from '@/lib/second-factor/policy-service';

export const PATCH = route(updateOrganizationOp, async ({ params, body, principal, audit }) =>
  json(await updateOrganization(params.orgId, body, principal, audit)),
);

export const { GET, POST, PUT, DELETE } = otherMethods(updateOrganizationOp);
