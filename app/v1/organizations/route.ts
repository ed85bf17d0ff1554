import { json, route } from '@/lib/http/route';
import { listOrganizationsOp } from '@/lib/orgs/operations';
import { listOrganizations } from '@/lib/orgs/service';
import { otherMethods } from '@/lib/http/methods';

export const GET = route(listOrganizationsOp, async ({ principal, query }) =>
  json(await listOrganizations(principal, query)),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(listOrganizationsOp);
