import { json, route } from '@/lib/pipeline/route';
import { createProjectOp, listProjectsOp } from '@/lib/orgs/operations';
import { listProjects } from '@/lib/orgs/service';
import { createProject } from '@/lib/orgs/create-service';
import { otherMethods } from '@/lib/pipeline/methods';

export const GET = route(listProjectsOp, async ({ params, query }) => json(await listProjects(params.orgId, query)));

export const POST = route(createProjectOp, async ({ params, body, audit }) =>
  json(await createProject(params.orgId, body, audit), { status: 201 }),
);

export const { PUT, PATCH, DELETE } = otherMethods(listProjectsOp, createProjectOp);
