import { json, route } from '@/lib/http/route';
import { listOrganizationsOp } from '@/lib/orgs/operations';
import { listOrganizations } from '@/lib/orgs/service';

export const GET = route(listOrganizationsOp, async ({ principal, query }) =>
  json(await listOrganizations(principal, query)),
);
