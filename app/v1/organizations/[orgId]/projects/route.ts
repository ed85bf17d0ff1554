import { json, route } from '@/lib/pipeline/route';
import { listProjectsOp } from '@/lib/orgs/operations';
import { listProjects } from '@/lib/orgs/service';
import { otherMethods } from '@/lib/pipeline/methods';

export const GET = route(listProjectsOp, async ({ params, query }) => json(await listProjects(params.orgId, query)));

export const { POST, PUT, PATCH, DELETE } = otherMethods(listProjectsOp);
