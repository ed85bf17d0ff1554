import { json, route } from '@/lib/pipeline/route';
import { createProjectOp, listProjectsOp } from '@/lib/orgs/operations';
import { listProjectsRoute } from '@/lib/orgs/routes';
import { createProject } from '@/lib/orgs/create-service';
import { otherMethods } from '@/lib/pipeline/methods';

export const GET = listProjectsRoute;

export const POST = route(createProjectOp, async ({ params, body, audit }) =>
  json(await createProject(params.orgId, body, audit), { status: 201 }),
);

export const { PUT, PATCH, DELETE } = otherMethods(listProjectsOp, createProjectOp);
