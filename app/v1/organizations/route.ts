import { json, route } from '@/lib/pipeline/route';
import { listOrganizationsOp } from '@/lib/orgs/operations';
import { listOrganizations } from '@/lib/orgs/service';
import { otherMethods } from '@/lib/pipeline/methods';

export const GET = route(listOrganizationsOp, async ({ principal, query }) =>
  json(await listOrganizations(principal, query)),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(listOrganizationsOp);
