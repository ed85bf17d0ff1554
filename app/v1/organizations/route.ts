import { json, route } from '@/lib/pipeline/route';
import { createOrganizationOp, listOrganizationsOp } from '@/lib/orgs/operations';
import { listOrganizationsRoute } from '@/lib/orgs/routes';
import { createOrganization } from '@/lib/members/join-service';
import { otherMethods } from '@/lib/pipeline/methods';

export const GET = listOrganizationsRoute;

export const POST = route(createOrganizationOp, async ({ principal, body, audit }) =>
  json(await createOrganization(principal, body.name, audit), { status: 201 }),
);

export const { PUT, PATCH, DELETE } = otherMethods(listOrganizationsOp, createOrganizationOp);
